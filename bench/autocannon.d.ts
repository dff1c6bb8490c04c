// The part of autocannon's programmatic API the bench uses (the package ships no types).
declare module "autocannon" {
  interface Request {
    method?: string;
    path?: string;
    setupRequest?: (req: { path: string }) => { path: string };
  }
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    headers?: Record<string, string>;
    requests?: Request[];
    method?: string;
    body?: string;
    /** Requests per second over all connections (bench/mcp-flood.ts). */
    overallRate?: number;
    /** Seconds before a request counts as timed out (bench/cluster.ts). */
    timeout?: number;
  }
  interface Histogram {
    average: number;
    total: number;
    p50: number;
    p99: number;
    max: number;
  }
  interface Result {
    requests: Histogram;
    latency: Histogram;
    non2xx: number;
    errors: number;
    timeouts: number;
    "2xx": number;
    statusCodeStats?: Record<string, { count: number }>;
  }
  function autocannon(opts: Options): Promise<Result>;
  export default autocannon;
}
