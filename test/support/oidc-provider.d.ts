// oidc-provider ships no types; the SSO test uses only its constructor and callback().
declare module "oidc-provider" {
  export default class Provider {
    constructor(issuer: string, configuration: object);
    callback(): (req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse) => void;
  }
}
