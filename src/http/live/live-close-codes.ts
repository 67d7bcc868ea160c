// WebSocket close codes of live subscriptions: an error closes with 4000 + its HTTP status (4401,
// 4404, 4429, ...) after its `{"error": ...}` message; a consumer that falls behind gets 1013.

export const CLOSE_SLOW_CONSUMER = 1013;
export const CLOSE_GOING_AWAY = 1001;

export function closeCodeForStatus(status: number): number {
  return 4000 + status;
}
