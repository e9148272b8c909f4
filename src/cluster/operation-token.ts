// Generation attempts (DR operation token, root token) and the DR operation token. Placeholder.
export type OperationTokenEvent = never;
export const operationTokenReducers = {};
