// The page shell every server-rendered page uses: no CDN, no scripts required, readable on a phone.
// Always render untrusted text with the `safe` attribute or Html.escapeHtml (KitaJS does not escape by default).
import { Html } from "@elysiajs/html";

const CSS = `
:root{--fg:#1b1f24;--muted:#57606a;--bg:#fff;--line:#d0d7de;--accent:#0b5cad;--hi:#b42318;--med:#b54708;--lo:#067647}
*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:var(--fg);background:var(--bg)}
header.site{display:flex;flex-wrap:wrap;gap:.75rem 1.25rem;align-items:center;padding:.75rem 1rem;border-bottom:1px solid var(--line)}
header.site .brand{font-weight:700;text-decoration:none;color:var(--fg)}header.site nav{display:flex;flex-wrap:wrap;gap:.75rem}
main{max-width:58rem;margin:0 auto;padding:1rem}a{color:var(--accent)}h1{font-size:1.6rem;line-height:1.25}
.card{border:1px solid var(--line);border-radius:.5rem;padding:1rem;margin:.75rem 0}.muted{color:var(--muted)}
.sev-high{color:var(--hi)}.sev-medium{color:var(--med)}.sev-low{color:var(--lo)}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.4rem;border-bottom:1px solid var(--line);vertical-align:top}
.scroll{overflow-x:auto}form.inline{display:inline}label{display:block;margin:.5rem 0 .2rem}
input,select,textarea{font:inherit;padding:.45rem;border:1px solid var(--line);border-radius:.35rem;max-width:100%}
button{font:inherit;padding:.45rem .9rem;border-radius:.35rem;border:1px solid var(--accent);background:var(--accent);color:#fff;cursor:pointer}
button.secondary{background:#fff;color:var(--accent)}.error{color:var(--hi)}.notice{background:#f6f8fa;border-left:4px solid var(--accent);padding:.5rem 1rem}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.9em}pre{overflow-x:auto;background:#f6f8fa;padding:.75rem;border-radius:.35rem}
`;

export interface LayoutProps {
  title: string;
  /** Signed-in person's name or email, when there is one. */
  user?: string;
  children?: JSX.Element | JSX.Element[] | string;
}

export function Layout({ title, user, children }: LayoutProps): JSX.Element {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title safe>{`${title} · Rivals`}</title>
        <style>{CSS}</style>
      </head>
      <body>
        <header class="site">
          <a class="brand" href="/">
            Rivals
          </a>
          <nav>
            {user ? <a href="/app">Feed</a> : ""}
            <a href="/briefs">Briefs</a>
            <a href="/guides">Guides</a>
            <a href="/pricing">Pricing</a>
            <a href="/developers">Developers</a>
            {user ? <a href="/app/settings/integrations">Integrations</a> : <a href="/signin">Sign in</a>}
          </nav>
        </header>
        <main>{children as "safe"}</main>
      </body>
    </html>
  );
}

/** Wraps rendered HTML in a response with the doctype and security headers. */
export function htmlResponse(
  body: JSX.Element | string,
  status = 200,
  headers: Record<string, string> = {},
): Response {
  return new Response(`<!doctype html>${body}`, {
    status,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "x-content-type-options": "nosniff",
      "x-frame-options": "DENY",
      "referrer-policy": "same-origin",
      "content-security-policy":
        "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'; form-action 'self'",
      ...headers,
    },
  });
}

export { Html };
