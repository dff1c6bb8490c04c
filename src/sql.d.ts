declare module "*.sql" {
  const text: string;
  export default text;
}
declare module "*.ndjson" {
  const text: string;
  export default text;
}
