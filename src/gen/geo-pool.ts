// Client locations for edge events: city, CDN colo, network and coordinates that belong together,
// with a traffic weight each (North America and Europe heavy, a long tail elsewhere).

export interface GeoPlace {
  city: string;
  country: string;
  continent: string;
  colo: string;
  latitude: string;
  longitude: string;
  postalCode: string;
  region: string;
  regionCode: string;
  timezone: string;
  isEU: boolean;
  asn: number;
  asOrganization: string;
  weight: number;
}

type Row = [string, string, string, string, string, string, string, string, string, string, number, string, number];

// city, country, continent, colo, lat, lon, postal, region, regionCode, timezone, asn, asOrg, weight
const ROWS: Row[] = [
  ['Ashburn', 'US', 'NA', 'IAD', '39.04370', '-77.48750', '20147', 'Virginia', 'VA', 'America/New_York', 14618, 'Amazon.com', 14],
  ['New York', 'US', 'NA', 'EWR', '40.71280', '-74.00600', '10001', 'New York', 'NY', 'America/New_York', 7922, 'Comcast Cable', 8],
  ['San Francisco', 'US', 'NA', 'SFO', '37.77490', '-122.41940', '94107', 'California', 'CA', 'America/Los_Angeles', 7018, 'AT&T Services', 7],
  ['Los Angeles', 'US', 'NA', 'LAX', '34.05220', '-118.24370', '90012', 'California', 'CA', 'America/Los_Angeles', 20001, 'Charter Communications', 5],
  ['Chicago', 'US', 'NA', 'ORD', '41.87810', '-87.62980', '60601', 'Illinois', 'IL', 'America/Chicago', 7922, 'Comcast Cable', 4],
  ['Dallas', 'US', 'NA', 'DFW', '32.77670', '-96.79700', '75201', 'Texas', 'TX', 'America/Chicago', 7018, 'AT&T Services', 3],
  ['Seattle', 'US', 'NA', 'SEA', '47.60620', '-122.33210', '98101', 'Washington', 'WA', 'America/Los_Angeles', 16509, 'Amazon.com', 3],
  ['Toronto', 'CA', 'NA', 'YYZ', '43.65320', '-79.38320', 'M5H', 'Ontario', 'ON', 'America/Toronto', 812, 'Rogers Communications', 3],
  ['Mexico City', 'MX', 'NA', 'MEX', '19.43260', '-99.13320', '06000', 'Mexico City', 'CMX', 'America/Mexico_City', 8151, 'Uninet', 2],
  ['Berlin', 'DE', 'EU', 'TXL', '52.52000', '13.40500', '10115', 'Land Berlin', 'BE', 'Europe/Berlin', 3209, 'ACME Germany', 4],
  ['Frankfurt am Main', 'DE', 'EU', 'FRA', '50.11090', '8.68210', '60311', 'Hesse', 'HE', 'Europe/Berlin', 3320, 'Deutsche Telekom AG', 4],
  ['München', 'DE', 'EU', 'MUC', '48.13510', '11.58200', '80331', 'Bavaria', 'BY', 'Europe/Berlin', 3320, 'Deutsche Telekom AG', 2],
  ['London', 'GB', 'EU', 'LHR', '51.50740', '-0.12780', 'EC1A', 'England', 'ENG', 'Europe/London', 2856, 'British Telecommunications PLC', 6],
  ['Dublin', 'IE', 'EU', 'DUB', '53.34980', '-6.26030', 'D02', 'Leinster', 'L', 'Europe/Dublin', 16509, 'Amazon.com', 3],
  ['Paris', 'FR', 'EU', 'CDG', '48.85660', '2.35220', '75001', 'Île-de-France', 'IDF', 'Europe/Paris', 3215, 'Orange', 4],
  ['Amsterdam', 'NL', 'EU', 'AMS', '52.36760', '4.90410', '1012', 'North Holland', 'NH', 'Europe/Amsterdam', 1136, 'KPN B.V.', 3],
  ['Madrid', 'ES', 'EU', 'MAD', '40.41680', '-3.70380', '28001', 'Madrid', 'MD', 'Europe/Madrid', 3352, 'Telefonica de Espana', 2],
  ['Milan', 'IT', 'EU', 'MXP', '45.46420', '9.19000', '20121', 'Lombardy', '25', 'Europe/Rome', 3269, 'Telecom Italia', 2],
  ['Stockholm', 'SE', 'EU', 'ARN', '59.32930', '18.06860', '111 20', 'Stockholm County', 'AB', 'Europe/Stockholm', 3301, 'Telia Company AB', 1],
  ['Warsaw', 'PL', 'EU', 'WAW', '52.22970', '21.01220', '00-001', 'Mazovia', '14', 'Europe/Warsaw', 5617, 'Orange Polska', 1],
  ['Zürich', 'CH', 'EU', 'ZRH', '47.37690', '8.54170', '8001', 'Zurich', 'ZH', 'Europe/Zurich', 3303, 'Swisscom (Schweiz) AG', 1],
  ['Kyiv', 'UA', 'EU', 'KBP', '50.45010', '30.52340', '01001', 'Kyiv City', '30', 'Europe/Kyiv', 15895, 'Kyivstar PJSC', 1],
  ['São Paulo', 'BR', 'SA', 'GRU', '-23.55050', '-46.63330', '01000-000', 'São Paulo', 'SP', 'America/Sao_Paulo', 28573, 'Claro NXT Telecomunicacoes', 4],
  ['Buenos Aires', 'AR', 'SA', 'EZE', '-34.60370', '-58.38160', 'C1002', 'Buenos Aires F.D.', 'C', 'America/Argentina/Buenos_Aires', 7303, 'Telecom Argentina S.A.', 1],
  ['Bogotá', 'CO', 'SA', 'BOG', '4.71100', '-74.07210', '110111', 'Bogota D.C.', 'DC', 'America/Bogota', 3816, 'Colombia Telecomunicaciones', 1],
  ['Mumbai', 'IN', 'AS', 'BOM', '19.07600', '72.87770', '400001', 'Maharashtra', 'MH', 'Asia/Kolkata', 55836, 'Reliance Jio Infocomm', 4],
  ['Bengaluru', 'IN', 'AS', 'BLR', '12.97160', '77.59460', '560001', 'Karnataka', 'KA', 'Asia/Kolkata', 24560, 'Bharti Airtel Ltd.', 3],
  ['Singapore', 'SG', 'AS', 'SIN', '1.35210', '103.81980', '018956', 'Singapore', '01', 'Asia/Singapore', 16509, 'Amazon.com', 3],
  ['Tokyo', 'JP', 'AS', 'NRT', '35.67620', '139.65030', '100-0001', 'Tokyo', '13', 'Asia/Tokyo', 2516, 'KDDI Corporation', 3],
  ['Seoul', 'KR', 'AS', 'ICN', '37.56650', '126.97800', '04524', 'Seoul', '11', 'Asia/Seoul', 4766, 'Korea Telecom', 2],
  ['Jakarta', 'ID', 'AS', 'CGK', '-6.20880', '106.84560', '10110', 'Jakarta', 'JK', 'Asia/Jakarta', 7713, 'PT Telekomunikasi Indonesia', 2],
  ['Hong Kong', 'HK', 'AS', 'HKG', '22.31930', '114.16940', '999077', 'Central and Western', 'HCW', 'Asia/Hong_Kong', 4760, 'HKT Limited', 1],
  ['Dubai', 'AE', 'AS', 'DXB', '25.20480', '55.27080', '00000', 'Dubai', 'DU', 'Asia/Dubai', 5384, 'Emirates Telecommunications', 1],
  ['Sydney', 'AU', 'OC', 'SYD', '-33.86880', '151.20930', '2000', 'New South Wales', 'NSW', 'Australia/Sydney', 1221, 'Telstra Corporation', 2],
  ['Auckland', 'NZ', 'OC', 'AKL', '-36.84850', '174.76330', '1010', 'Auckland', 'AUK', 'Pacific/Auckland', 9500, 'One NZ', 1],
  ['Lagos', 'NG', 'AF', 'LOS', '6.52440', '3.37920', '100001', 'Lagos', 'LA', 'Africa/Lagos', 29465, 'MTN Nigeria', 1],
  ['Johannesburg', 'ZA', 'AF', 'JNB', '-26.20410', '28.04730', '2001', 'Gauteng', 'GP', 'Africa/Johannesburg', 37457, 'Telkom SA Ltd.', 1],
  ['Nairobi', 'KE', 'AF', 'NBO', '-1.29210', '36.82190', '00100', 'Nairobi County', '30', 'Africa/Nairobi', 33771, 'Safaricom Limited', 1],
];

const EU = new Set(['DE', 'FR', 'NL', 'ES', 'IT', 'SE', 'PL', 'IE']);

export const GEO_PLACES: readonly GeoPlace[] = ROWS.map((r) => ({
  city: r[0], country: r[1], continent: r[2], colo: r[3], latitude: r[4], longitude: r[5], postalCode: r[6],
  region: r[7], regionCode: r[8], timezone: r[9], asn: r[10], asOrganization: r[11], weight: r[12], isEU: EU.has(r[1]),
}));
