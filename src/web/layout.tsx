// The page shell every server-rendered page uses: no CDN, no scripts required, readable on a phone.
// Always render untrusted text with the `safe` attribute or Html.escapeHtml (KitaJS does not escape by default).
/** @jsxRuntime classic */
/** @jsx Html.createElement */
/** @jsxFrag Html.Fragment */
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
.small{font-size:.875rem}.lead{font-size:1.1rem}.badge{display:inline-block;padding:0 .45rem;border:1px solid currentColor;border-radius:1rem;font-size:.8rem;font-weight:600;text-transform:uppercase}
.meta{display:flex;flex-wrap:wrap;gap:.25rem .75rem;align-items:center}.card h3{margin:.1rem 0 .35rem;font-size:1.1rem}.card p{margin:.4rem 0 0}
dl.kv{display:grid;grid-template-columns:minmax(7rem,max-content) 1fr;gap:.3rem 1rem;margin:.5rem 0}dl.kv dt{color:var(--muted)}dl.kv dd{margin:0;min-width:0;overflow-wrap:anywhere}
dl.kv dl.kv{grid-template-columns:1fr;gap:0 1rem}blockquote{margin:.25rem 0;padding-left:.75rem;border-left:3px solid var(--line)}ol.evidence li{margin:.6rem 0}
dl.diff del{background:#ffebe9;color:#82071e}dl.diff ins{background:#dafbe1;color:#116329;text-decoration:none;font-weight:600}figure.chart{margin:.5rem 0 1rem;max-width:40rem}.legend{margin-right:.75rem}
.appbar{display:flex;flex-wrap:wrap;justify-content:space-between;gap:.5rem 1rem;align-items:center;border-bottom:1px solid var(--line);padding-bottom:.5rem}
.appnav{display:flex;flex-wrap:wrap;gap:.4rem 1rem}.appnav a[aria-current=page]{font-weight:700;color:var(--fg);text-decoration:none}
.wsname,.switcher{display:flex;flex-wrap:wrap;gap:.4rem;align-items:center}.inline-label{display:inline;margin:0}
.filters{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:flex-end;margin:1rem 0}.filters label{margin-top:0}.actions{display:flex;flex-wrap:wrap;gap:.75rem;align-items:center}
.pager{display:flex;gap:1rem;justify-content:center;margin:1.5rem 0}fieldset{border:1px solid var(--line);border-radius:.35rem;margin:.75rem 0}label.check{font-weight:400}
form.card input:not([type=checkbox]):not([type=radio]),form.stack input:not([type=checkbox]):not([type=radio]),form.stack textarea{width:100%}form.stack{max-width:30rem}
button.danger{border-color:var(--hi);color:var(--hi)}input.token{width:100%;font-family:ui-monospace,monospace}.created{border-color:var(--lo)}
.hero{padding:1.5rem 0}.hero h1{font-size:2rem}.cta{display:flex;flex-wrap:wrap;gap:.75rem;margin:1rem 0}.cta a{padding:.5rem 1rem;border:1px solid var(--accent);border-radius:.35rem;text-decoration:none}
.cta a.primary{background:var(--accent);color:#fff}.grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(15rem,1fr));gap:.75rem}
.markdown{overflow-wrap:anywhere}main{overflow-wrap:break-word}td code{white-space:nowrap}
pre.wrap{white-space:pre-wrap;overflow-wrap:anywhere}
@media (max-width:40rem){table.stack thead{display:none}table.stack tr{display:block;border-bottom:1px solid var(--line);padding:.4rem 0}table.stack td{display:flex;gap:.75rem;border:0;padding:.1rem 0}table.stack td[data-label]::before{content:attr(data-label);color:var(--muted);min-width:6.5rem}table.stack th[scope=row]{display:block;border:0;padding:.1rem 0}table.stack td:empty{display:none}}
details>summary{cursor:pointer;color:var(--accent)}
[hidden]{display:none!important}.chip{display:inline-block;margin:.15rem .3rem .15rem 0;padding:.05rem .55rem;border:1px solid var(--line);border-radius:1rem;font-size:.85rem;background:#f6f8fa;color:var(--fg);text-decoration:none}a.chip{color:var(--accent)}a.chip[aria-current=page]{background:var(--accent);color:#fff;border-color:var(--accent)}ul.chiplist{list-style:none;padding:0;margin:.5rem 0}ul.chiplist li{display:inline-block}dl.chips{display:grid;grid-template-columns:minmax(6rem,max-content) 1fr;gap:.3rem 1rem}dl.chips dt{color:var(--muted);text-transform:capitalize}dl.chips dd{margin:0}table.bars{max-width:32rem}table.bars th{font-weight:400;white-space:nowrap;border:0;padding:.15rem .5rem .15rem 0}table.bars td{width:100%;border:0;padding:.15rem 0;display:flex;align-items:center;gap:.4rem}.bar{display:inline-block;height:.9rem;background:var(--accent);border-radius:.2rem}figure.positioning{margin:.75rem 0}figure.positioning blockquote{font-size:1.15rem;font-style:italic}ol.timeline{list-style:none;padding:0}ol.timeline li{padding:.35rem 0;border-bottom:1px solid var(--line)}ol.timeline li.closed a{color:var(--muted)}.chips-nav{margin:.5rem 0}

aside.team-notes{background:#fffbeb;border-left:4px solid var(--med);padding:.5rem 1rem;margin:1rem 0}aside.team-notes ul{list-style:none;padding:0}aside.team-notes li{margin:.5rem 0}.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}ul.changes-list{margin:0;padding-left:1rem}textarea.md{width:100%;font-family:ui-monospace,monospace;font-size:.85rem}
.print-only{display:none}@media print{header.site,.appbar,.no-print,form,button{display:none!important}.print-only{display:block}body{font-size:11pt;color:#000}main{max-width:none;padding:0}a{color:inherit;text-decoration:none}.battlecard section a[href^=http]::after{content:" (" attr(href) ")";font-size:.8em;color:#444}h1,h2,h3{break-after:avoid}li,blockquote{break-inside:avoid}aside.team-notes{background:none;border:1px solid #999}aside.team-notes li:nth-child(n+4){display:none}dl.diff ins,dl.diff del{background:none}@page{margin:1.5cm}}

:focus-visible{outline:3px solid var(--accent);outline-offset:2px}.signal-actions{margin-top:.5rem;gap:.4rem .5rem}.signal-actions button{padding:.2rem .6rem;font-size:.85rem}button[aria-pressed=true]{background:var(--accent);color:#fff}section.pinned{border-left:4px solid var(--med);padding-left:.75rem;margin:1rem 0}section.pinned h2{font-size:1.1rem;margin:.25rem 0}.card.pinned{border-color:var(--med)}ol.notes{padding-left:1.25rem}p.note{white-space:pre-wrap;margin:0}

table.compare{font-size:.9rem}table.compare th,table.compare td{white-space:nowrap}table.compare td{max-width:16rem;overflow:hidden;text-overflow:ellipsis}table.compare tr.own{background:#f6f8fa}table.compare a.sort{color:var(--fg)}table.compare thead th{position:sticky;top:0;background:var(--bg)}table.compare th[scope=row]{position:sticky;left:0;background:inherit;white-space:normal;min-width:7rem;max-width:11rem}@media (min-width:64rem){.scroll.compare{width:calc(100vw - 3rem);margin-left:calc((100% - 100vw + 3rem) / 2)}}table.compare tbody tr{background:var(--bg)}.scroll.compare:focus{outline:2px solid var(--accent)}
details.more{margin:.5rem 0}h1 img.logo{vertical-align:middle;margin-right:.5rem;border-radius:.25rem}caption{text-align:left;caption-side:bottom;padding-top:.3rem}
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
