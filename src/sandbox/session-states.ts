/** The form session's final states and the state an order's final status leads it to (README: state machine). */
export const FINAL_SESSION_STATES: ReadonlySet<string> = new Set(['completed', 'expired', 'cancelled']);
export const isFinalSessionState = (state: string): boolean => FINAL_SESSION_STATES.has(state);

/** Session state an order's final status leads to. */
export const SESSION_STATE_FOR_STATUS: Readonly<Record<string, string>> = {
  Completed: 'completed',
  CanceledByTimeout: 'expired',
  CanceledByService: 'cancelled',
};
