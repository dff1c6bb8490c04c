// Refusal pages for forms: a stale or missing CSRF token, or a person not allowed to do this.
/** @jsxRuntime classic */
/** @jsx Html.createElement */
/** @jsxFrag Html.Fragment */
import { Html, htmlResponse, Layout } from "./layout.tsx";

export function refusalPage(title: string, message: string, status = 403, user?: string): Response {
  return htmlResponse(
    <Layout title={title} user={user}>
      <h1 safe>{title}</h1>
      <p safe>{message}</p>
      <p>
        <a href="/">Start page</a>
      </p>
    </Layout>,
    status,
    { "cache-control": "no-store" },
  );
}

/** A POST whose CSRF token is missing or wrong: nothing was changed. */
export function csrfRefused(user?: string): Response {
  return refusalPage(
    "Form expired",
    "This form was not accepted because its security token is missing or out of date. Nothing was changed. Reload the page and try again.",
    403,
    user,
  );
}
