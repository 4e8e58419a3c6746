/** The answer of the console's `POST /webhooks/test` (src/console/webhook-test.ts), shared with its page. */
export interface WebhookTestResult {
  /** The token endpoint (mount path) the delivery went to. */
  endpoint: string;
  /** The webhook route it was posted to. */
  url: string;
  /** The delivery's request_id; its order id in the log is `paydesk_test_{request_id}`. */
  request_id: string;
  sent_at: string;
  /** Signed with the webhook secret (X-Paydesk-Signature) / carried the API key (X-API-Key). */
  signed: boolean;
  api_key: boolean;
  /** What the handler answered (0: it threw). */
  status: number;
  /** The start of its answer's body. */
  answer: string;
  /** Verified and answered 2xx `{"test": true}`: the webhook log has it with the outcome `test`. */
  ok: boolean;
  /** Why not: `unverified` (401: the handler's secret or key is not the one the console signs with), `not_a_test_answer` (2xx without `test: true`), `error` (another status, or it threw). */
  problem: 'unverified' | 'not_a_test_answer' | 'error' | null;
}
