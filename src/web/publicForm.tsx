// The public forms that create something without an account (sign-up, the free-brief request). Each is served
// with a fresh form token; a post passes the token check and the per-address limit (formLimit.ts) before any
// work; a refused post shows the form again with what was typed and the reason, never cached.
/** @jsxRuntime classic */
/** @jsx Html.createElement */
/** @jsxFrag Html.Fragment */
import type { Server } from "bun";
import { formCsrf, verifyFormCsrf } from "../auth/session.ts";
import type { Services } from "../services.ts";
import { Csrf, Notice } from "./components.tsx";
import { csrfRefused } from "./errors.tsx";
import { formLimit } from "./formLimit.ts";
import { field } from "./http.ts";
import { Html, Layout } from "./layout.tsx";
import { publicPage, viewer } from "./public.tsx";

/** What was typed in a public form's text fields (echoed back when a post is refused). */
export type FormValues<K extends string> = Partial<Record<K, string>>;

/** What a public form is drawn from: its token, what was typed, why it was refused, who is signed in. */
export interface PublicFormProps<V> {
  csrf: string;
  values?: V;
  error?: string;
  user?: string;
}

/** The page around a public form: heading, introduction, the refusal, the fields with the token, the button. */
export function PublicFormPage(
  p: PublicFormProps<unknown> & {
    title: string;
    heading: string;
    action: string;
    submit: string;
    /** Above the form. */
    intro: JSX.Element;
    /** The fields. */
    children: JSX.Element | JSX.Element[];
    /** Below the form. */
    after: JSX.Element;
  },
): JSX.Element {
  return (
    <Layout title={p.title} user={p.user}>
      <h1 safe>{p.heading}</h1>
      {p.intro}
      {p.error ? <Notice kind="error">{Html.escapeHtml(p.error)}</Notice> : ""}
      <form method="post" action={p.action} class="stack">
        <Csrf token={p.csrf} />
        {p.children as "safe"}
        <button type="submit" safe>
          {p.submit}
        </button>
      </form>
      {p.after}
    </Layout>
  );
}

const NO_STORE = { "cache-control": "no-store" };

/** `name` keys the per-address limit (shared by every instance), `perHour` is that limit; `fields` are the text
 * fields shown again after a refusal (never a password). */
export function publicForm<K extends string>(
  s: Services,
  name: string,
  perHour: number,
  fields: readonly K[],
  Form: (p: PublicFormProps<FormValues<K>>) => JSX.Element,
) {
  type V = FormValues<K>;
  const limited = formLimit(s, name, perHour);
  return {
    /** The posted text fields. */
    values(body: unknown): V {
      return Object.fromEntries(fields.map((f) => [f, field(body, f)])) as V;
    },
    /** The empty form, with a fresh token (and its cookie when the visitor has none yet). */
    async show(request: Request): Promise<Response> {
      const f = formCsrf(s, request);
      return publicPage(<Form csrf={f.token} user={await viewer(s, request)} />, 200, {
        ...NO_STORE,
        ...(f.cookie ? { "set-cookie": f.cookie } : {}),
      });
    },
    /** Undefined when the post may be worked on; else its refusal (403 stale token, 429 too many posts). */
    async admit(
      request: Request,
      body: unknown,
      server: Server<unknown> | null,
    ): Promise<Response | undefined> {
      if (!verifyFormCsrf(s, request, field(body, "csrf"))) return csrfRefused();
      return limited(request, server);
    },
    /** The form again, 400, with what was typed and why it was refused. */
    async refuse(request: Request, body: unknown, values: V, error: string): Promise<Response> {
      return publicPage(
        <Form csrf={field(body, "csrf")} values={values} error={error} user={await viewer(s, request)} />,
        400,
        NO_STORE,
      );
    },
  };
}
