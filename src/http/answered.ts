// A refusal a surface gives in its own format (an OAuth error, a JSON-RPC error) from a hook of the HTTP kit, such
// as its rate limit: thrown from the hook, it is sent as it stands by the error hook (errors.ts).
export class Answered extends Error {
  constructor(readonly response: Response) {
    super(`answered ${response.status}`);
  }
}
