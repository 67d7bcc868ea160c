// The exact shape of a generated `edge.logs.prod` event (SAMPLE-EVENTS.md), shared by its
// builder and its fast NDJSON writer so the two cannot drift apart silently.

export type EdgeRequest = {
  edge: {
    asOrganization: string;
    asn: number;
    botManagement: { corporateProxy: boolean; ja3Hash: string; score: number; staticResource: boolean; verifiedBot: boolean };
    city: string;
    clientAcceptEncoding: string;
    clientTrustScore: number;
    colo: string;
    continent: string;
    country: string;
    edgeRequestKeepAliveStatus: number;
    httpProtocol: string;
    isEUCountry: string;
    latitude: string;
    longitude: string;
    postalCode: string;
    region: string;
    regionCode: string;
    timezone: string;
    tlsCipher: string;
    tlsClientAuth: { certPresented: string; certRevoked: string; certVerified: string };
    tlsExportedAuthenticator: { clientFinished: string; clientHandshake: string; serverFinished: string; serverHandshake: string };
    tlsVersion: string;
  };
  headers: {
    accept: string;
    edge_connecting_ip: string;
    edge_ipcountry: string;
    edge_ray: string;
    host: string;
    referer: string;
    user_agent: string;
    x_client_info: string | null;
    x_forwarded_proto: string;
    x_real_ip: string;
  };
  /** Absent (with search and url) in container log shipper events. */
  host?: string;
  method: string;
  path: string;
  protocol: string;
  search?: string | null;
  url?: string;
};

export type EdgeEvent = {
  id: string;
  timestamp: string | number;
  event_message: string;
  project: string;
  metadata: {
    ingest_worker: { worker_id: string };
    request: EdgeRequest;
    response: {
      headers: {
        edge_cache_status: string;
        edge_ray: string;
        content_length: string;
        content_type: string;
        date: string;
        gateway_mode: string;
        gateway_version: string;
      };
      origin_time: number;
      status_code: number;
    };
  };
  appname?: string;
};
