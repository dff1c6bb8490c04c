// Technology detection with our own rule table: one realistic page per category, headers and cookies,
// implied technologies, and no false positives from prose, escaped code samples or anchors.
import { expect, test } from "bun:test";
import { detectTech, requiredLiteral } from "../../../src/engine/extract/tech.ts";
import { TECH_RULES } from "../../../src/engine/extract/techRules.ts";

const names = (r: { name: string }[]) => r.map((t) => t.name).sort();
const page = (head: string, body = "<main><h1>Hello</h1><p>Plain words.</p></main>") =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Acme</title>${head}</head><body>${body}</body></html>`;

test("the rule table covers at least 60 technologies, unique names, every category a SaaS buyer asks about", () => {
  const all = TECH_RULES.map((r) => r.name);
  expect(new Set(all).size).toBe(all.length);
  expect(all.length).toBeGreaterThanOrEqual(60);
  const cats = new Set(TECH_RULES.map((r) => r.category));
  for (const c of [
    "analytics",
    "tag_manager",
    "cdp",
    "marketing_automation",
    "crm",
    "chat",
    "payments",
    "experimentation",
    "framework",
    "cms",
    "cdn",
    "hosting",
    "auth",
    "error_tracking",
  ]) {
    expect(cats.has(c as never)).toBe(true);
  }
  for (const r of TECH_RULES) {
    for (const implied of r.implies ?? []) expect(all).toContain(implied);
    expect(r.urls || r.code || r.headers || r.cookies || r.meta).toBeTruthy();
  }
});

test("analytics and tag managers from the usual snippets", () => {
  const html = page(`
<script async src="https://www.googletagmanager.com/gtag/js?id=G-ABCDE12345"></script>
<script>window.dataLayer = window.dataLayer || []; function gtag(){dataLayer.push(arguments);} gtag('js', new Date()); gtag('config', 'G-ABCDE12345');</script>
<script>(function(w,d,s,l,i){w[l]=w[l]||[];var f=d.getElementsByTagName(s)[0],j=d.createElement(s);j.async=true;j.src='https://www.googletagmanager.com/gtm.js?id='+i;f.parentNode.insertBefore(j,f);})(window,document,'script','dataLayer','GTM-ABC1234');</script>
<script>!function(){var analytics=window.analytics=window.analytics||[];analytics._writeKey="abcDEF123";analytics.load("abcDEF123");}();</script>
<script src="https://cdn.segment.com/analytics.js/v1/abcDEF123/analytics.min.js"></script>
<script>mixpanel.init('0123456789abcdef0123456789abcdef', {track_pageview: true});</script>
<script>!function(t,e){var o,n,p,r;e.__SV||(window.posthog=e)}(document,window.posthog||[]);posthog.init('phc_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcdef',{api_host:'https://us.i.posthog.com'})</script>
<script defer data-domain="acme.example" src="https://plausible.io/js/script.js"></script>
<script src="https://cdn.usefathom.com/script.js" data-site="ABCDEFG" defer></script>
<script>(function(h,o,t,j,a,r){h.hj=h.hj||function(){(h.hj.q=h.hj.q||[]).push(arguments)};h._hjSettings={hjid:1234567,hjsv:6};})(window,document,'https://static.hotjar.com/c/hotjar-','.js?sv=');</script>
<script>window['_fs_host'] = 'fullstory.com'; window['_fs_script'] = 'edge.fullstory.com/s/fs.js'; window['_fs_org'] = 'o-ABC-na1';</script>
<script src="https://cdn.amplitude.com/script/0123456789abcdef0123456789abcdef.js"></script>
<script type="text/javascript">window.heap=window.heap||[],heap.load=function(e,t){};heap.load("1234567890");</script>
<script src="//tags.tiqcdn.com/utag/acme/main/prod/utag.js"></script>
`);
  expect(names(detectTech({ html }))).toEqual(
    [
      "Google Analytics",
      "Google Tag Manager",
      "Segment",
      "Mixpanel",
      "PostHog",
      "Plausible",
      "Fathom",
      "Hotjar",
      "FullStory",
      "Amplitude",
      "Heap",
      "Tealium",
    ].sort(),
  );
});

test("CRM, marketing automation, chat and support widgets", () => {
  const html = page(
    `<script type="text/javascript" id="hs-script-loader" async defer src="//js.hs-scripts.com/1234567.js"></script>
<script src="//munchkin.marketo.net/munchkin.js"></script><script>Munchkin.init('123-ABC-456');</script>
<script type="text/javascript">piAId = '1001'; piCId = '2002'; piHostname = 'pi.pardot.com';</script>
<script>window.intercomSettings = { api_base: "https://api-iam.intercom.io", app_id: "abc123" };</script>
<script src="https://widget.intercom.io/widget/abc123"></script>
<script>"use strict";!function(){var t=window.driftt=window.drift=window.driftt||[];}();drift.load('a1b2c3d4e5f6');</script>
<script id="ze-snippet" src="https://static.zdassets.com/ekr/snippet.js?key=00000000-0000-0000-0000-000000000000"></script>
<script type="text/javascript">window.$crisp=[];window.CRISP_WEBSITE_ID="11111111-2222-3333-4444-555555555555";</script>
<script>window.__lc = window.__lc || {}; window.__lc.license = 12345678;</script>`,
    `<form action="https://webto.salesforce.com/servlet/servlet.WebToLead?encoding=UTF-8" method="POST"><input name="oid" type="hidden" value="00D000000000000"></form>`,
  );
  const found = detectTech({ html });
  expect(names(found)).toEqual(
    [
      "HubSpot",
      "Marketo",
      "Pardot",
      "Intercom",
      "Drift",
      "Zendesk",
      "Crisp",
      "LiveChat",
      "Salesforce",
    ].sort(),
  );
  expect(found.find((t) => t.name === "Intercom")?.category).toBe("chat");
  expect(found.find((t) => t.name === "HubSpot")?.category).toBe("marketing_automation");
  expect(found.find((t) => t.name === "Salesforce")?.category).toBe("crm");
});

test("payments and experimentation", () => {
  const html = page(
    `<script src="https://js.stripe.com/v3/"></script>
<script src="https://cdn.paddle.com/paddle/v2/paddle.js"></script><script>Paddle.Initialize({ token: "live_abc" });</script>
<script src="https://js.chargebee.com/v2/chargebee.js" data-cb-site="acme"></script>
<script src="https://js.braintreegateway.com/web/dropin/1.40.0/js/dropin.min.js"></script>
<script src="https://www.paypal.com/sdk/js?client-id=abc&currency=USD"></script>
<script src="https://cdn.optimizely.com/js/123456789.js"></script>
<script type='text/javascript' id='vwoCode'>window._vwo_code || (function() { var account_id=123456; })();</script>
<script src="https://unpkg.com/launchdarkly-js-client-sdk@3"></script><script>const ld = LDClient.initialize('abc', {key: 'anon'});</script>
<script src="https://cdn.jsdelivr.net/npm/@statsig/js-client@3/build/statsig-js-client+session-replay+web-analytics.min.js?apikey=client-abc"></script>`,
  );
  const found = detectTech({ html });
  expect(names(found)).toEqual(
    [
      "Stripe",
      "Paddle",
      "Chargebee",
      "Braintree",
      "PayPal",
      "Optimizely",
      "VWO",
      "LaunchDarkly",
      "Statsig",
    ].sort(),
  );
  expect(found.find((t) => t.name === "Stripe")).toEqual({
    name: "Stripe",
    category: "payments",
    evidence: "resource js.stripe.com/v3",
  });
});

test("frameworks with what they imply: Next.js → React, Nuxt → Vue.js, SvelteKit → Svelte; Angular, Gatsby", () => {
  const next = page(
    `<link rel="preload" href="/_next/static/css/abc123.css" as="style"><script src="/_next/static/chunks/main-abc.js" defer></script>`,
    `<div id="__next"><h1>Hi</h1></div><script id="__NEXT_DATA__" type="application/json">{"props":{"pageProps":{}},"page":"/","buildId":"abc"}</script>`,
  );
  expect(names(detectTech({ html: next, headers: { "X-Powered-By": "Next.js" } }))).toEqual([
    "Next.js",
    "React",
  ]);
  const nuxt = page(
    `<link rel="modulepreload" href="/_nuxt/entry.abc123.js">`,
    `<div id="__nuxt"><p data-v-1a2b3c4d>Hi</p></div><script>window.__NUXT__={}</script>`,
  );
  expect(names(detectTech({ html: nuxt }))).toEqual(["Nuxt", "Vue.js"]);
  const kit = page(
    `<link rel="modulepreload" href="/_app/immutable/entry/start.abc.js">`,
    `<div class="svelte-1x2y3z">Hi</div>`,
  );
  expect(names(detectTech({ html: kit }))).toEqual(["Svelte", "SvelteKit"]);
  const ng = page("", `<app-root ng-version="17.3.1"><div _ngcontent-ng-c1234567="">Hi</div></app-root>`);
  expect(names(detectTech({ html: ng }))).toEqual(["Angular"]);
  const gatsby = page(
    `<meta name="generator" content="Gatsby 5.13.0">`,
    `<div id="___gatsby"><div id="gatsby-focus-wrapper">Hi</div></div>`,
  );
  expect(names(detectTech({ html: gatsby }))).toEqual(["Gatsby", "React"]);
});

test("CMSs and site builders", () => {
  const wp = page(
    `<meta name="generator" content="WordPress 6.5.2"><link rel="stylesheet" href="https://acme.example/wp-content/themes/acme/style.css?ver=1.2">`,
  );
  expect(names(detectTech({ html: wp }))).toEqual(["WordPress"]);
  const webflow = `<!DOCTYPE html><html data-wf-domain="acme.example" data-wf-page="65a1b2c3d4e5f6a7b8c9d0e1" data-wf-site="65a1b2c3d4e5f6a7b8c9d0e0"><head><meta content="Webflow" name="generator"><link href="https://cdn.prod.website-files.com/65a1b2/css/acme.webflow.abc.min.css" rel="stylesheet" type="text/css"></head><body></body></html>`;
  expect(names(detectTech({ html: webflow }))).toEqual(["Webflow"]);
  const headless = page(
    "",
    `<img src="https://images.ctfassets.net/space1/asset1/abc/hero.png?w=800" alt=""><img src="https://cdn.sanity.io/images/proj/production/abc-800x600.png" alt="">`,
  );
  expect(names(detectTech({ html: headless }))).toEqual(["Contentful", "Sanity"]);
  const ghost = page(`<meta name="generator" content="Ghost 5.82">`);
  expect(names(detectTech({ html: ghost }))).toEqual(["Ghost"]);
  const hs = page(
    `<meta name="generator" content="HubSpot"><link rel="stylesheet" href="/hs-fs/hubfs/hub_generated/template_assets/1/main.min.css">`,
  );
  expect(names(detectTech({ html: hs }))).toEqual(["HubSpot", "HubSpot CMS"]);
  const framer = page(
    `<meta name="generator" content="Framer 2f5a7b1">`,
    `<img src="https://framerusercontent.com/images/abc.png" alt="">`,
  );
  expect(names(detectTech({ html: framer }))).toEqual(["Framer"]);
});

test("CDNs and hosting from response headers", () => {
  expect(names(detectTech({ headers: { server: "cloudflare", "cf-ray": "8a1b2c3d4e5f6a7b-FRA" } }))).toEqual([
    "Cloudflare",
  ]);
  expect(
    names(
      detectTech({
        headers: { "x-served-by": "cache-fra-eddf8230049-FRA", "x-cache": "HIT", via: "1.1 varnish" },
      }),
    ),
  ).toEqual(["Fastly"]);
  expect(names(detectTech({ headers: { server: "AkamaiGHost" } }))).toEqual(["Akamai"]);
  expect(
    names(
      detectTech({
        headers: {
          "x-cache": "Hit from cloudfront",
          via: "1.1 abc.cloudfront.net (CloudFront)",
          "x-amz-cf-pop": "FRA56-P1",
        },
      }),
    ),
  ).toEqual(["Amazon CloudFront"]);
  expect(
    names(detectTech({ headers: { server: "Vercel", "x-vercel-id": "fra1::abc", "x-vercel-cache": "HIT" } })),
  ).toEqual(["Vercel"]);
  expect(names(detectTech({ headers: { server: "Netlify", "x-nf-request-id": "01HX" } }))).toEqual([
    "Netlify",
  ]);
  const t = detectTech({ headers: { "CF-Ray": "abc" } });
  expect(t).toEqual([{ name: "Cloudflare", category: "cdn", evidence: "header cf-ray: abc" }]);
});

test("auth and error tracking", () => {
  const html = page(
    `<script src="https://cdn.auth0.com/js/auth0-spa-js/2.1/auth0-spa-js.production.js"></script>
<script src="https://global.oktacdn.com/okta-signin-widget/7.14.0/js/okta-sign-in.min.js"></script>
<script async crossorigin="anonymous" data-clerk-publishable-key="pk_live_Y2xlcmsuYWNtZS5leGFtcGxlJA" src="https://clerk.acme.example/npm/@clerk/clerk-js@5/dist/clerk.browser.js"></script>
<script src="https://www.gstatic.com/firebasejs/10.12.0/firebase-auth-compat.js"></script>
<script src="https://browser.sentry-cdn.com/7.110.0/bundle.min.js" crossorigin="anonymous"></script><script>Sentry.init({ dsn: "https://0123456789abcdef0123456789abcdef@o123456.ingest.sentry.io/4500000" });</script>
<script src="https://www.datadoghq-browser-agent.com/us1/v5/datadog-rum.js"></script><script>window.DD_RUM && window.DD_RUM.init({ clientToken: 'pub123', applicationId: 'app' });</script>
<script src="//d2wy8f7a9ursnm.cloudfront.net/v7/bugsnag.min.js"></script>
<script>var _rollbarConfig = { accessToken: "abc", captureUncaught: true };</script>
<script src="https://cdn.lr-ingest.com/LogRocket.min.js" crossorigin="anonymous"></script><script>window.LogRocket && window.LogRocket.init('abc123/acme-app');</script>`,
  );
  const found = detectTech({ html });
  expect(names(found)).toEqual(
    [
      "Auth0",
      "Okta",
      "Clerk",
      "Firebase Authentication",
      "Firebase",
      "Sentry",
      "Datadog RUM",
      "Bugsnag",
      "Rollbar",
      "LogRocket",
    ].sort(),
  );
  expect(found.find((t) => t.name === "Firebase")?.evidence).toMatch(/gstatic\.com\/firebasejs|implied by/);
});

test("CDPs, consent, advertising and other tags; scripts given outside the HTML count too", () => {
  const html =
    page(`<script src="https://cdn.cookielaw.org/scripttemplates/otSDKStub.js" data-domain-script="abc"></script>
<script>!function(f,b,e,v,n,t,s){}(window,document,'script','https://connect.facebook.net/en_US/fbevents.js');fbq('init', '1234567890');</script>
<script type="text/javascript">_linkedin_partner_id = "123456";</script>`);
  const found = detectTech({
    html,
    scripts: [
      "https://cdn.rudderlabs.com/v3/modern/rsa.min.js",
      "https://fast.appcues.com/12345.js",
      "https://js.chilipiper.com/marketing.js",
    ],
  });
  expect(names(found)).toEqual(
    ["OneTrust", "Meta Pixel", "LinkedIn Insight Tag", "RudderStack", "Appcues", "Chili Piper"].sort(),
  );
});

test("cookie names from Set-Cookie (joined by commas, with Expires dates) identify technologies", () => {
  const setCookie =
    "__cf_bm=abc.def; path=/; expires=Sat, 22-Nov-26 21:00:00 GMT; domain=.acme.example; HttpOnly; Secure; SameSite=None, hubspotutk=123; Path=/";
  expect(names(detectTech({ headers: { "set-cookie": setCookie } }))).toEqual(["Cloudflare", "HubSpot"]);
});

test("no false positives: a plain page whose prose, code samples and links name many technologies", () => {
  const html = page(
    `<meta name="description" content="We compare Stripe, Paddle, HubSpot, Segment, Intercom and Next.js for you.">
<link rel="preconnect" href="https://js.stripe.com">`,
    `<main>
  <h1>Why we moved from WordPress and Webflow to our own stack</h1>
  <p>We tried Google Analytics, Google Tag Manager, Mixpanel, Amplitude, Heap, PostHog, Plausible, Hotjar and FullStory.
     Our payments ran on Stripe, then Paddle, then Chargebee; support on Intercom, Drift, Zendesk and Crisp.
     Auth0, Okta, Clerk and Firebase Auth handled sign-in; Sentry, Datadog, Bugsnag and LogRocket caught errors.
     We deploy to Vercel and Netlify behind Cloudflare, Fastly, Akamai or CloudFront, and build with React, Vue, Angular,
     Svelte, Nuxt and Gatsby. Optimizely, VWO, LaunchDarkly and Statsig ran experiments. Marketo and Pardot sent email.</p>
  <pre><code>&lt;script src="https://js.stripe.com/v3/"&gt;&lt;/script&gt;
&lt;script&gt;gtag('config', 'G-ABCDE12345'); posthog.init('phc_abc')&lt;/script&gt;
&lt;div id="__NEXT_DATA__"&gt; window.intercomSettings = {} Sentry.init({}) __NUXT__ ng-version="17"</code></pre>
  <p>Read more at <a href="https://stripe.com/docs/js">stripe.com/docs</a>, <a href="https://www.hubspot.com/">HubSpot</a>,
     <a href="https://github.com/vercel/next.js">Next.js</a> and <a href="https://js.stripe.com/v3/">js.stripe.com</a>.</p>
  <textarea>&lt;script src="https://widget.intercom.io/widget/abc"&gt;</textarea>
  <script type="application/ld+json">{"@context":"https://schema.org","@type":"Article","headline":"We use cdn.segment.com/analytics.js and js.stripe.com/v3"}</script>
</main>`,
  );
  expect(detectTech({ html })).toEqual([]);
  expect(detectTech({ html, headers: { "content-type": "text/html", server: "gunicorn" } })).toEqual([]);
});

test("malformed input never throws", () => {
  expect(detectTech({ html: "<script src=" })).toEqual([]);
  expect(detectTech({ html: "<<<>>><meta name=generator>" })).toEqual([]);
  expect(detectTech({})).toEqual([]);
  expect(detectTech(null as never)).toEqual([]);
  expect(detectTech({ html: 42 as never, headers: "x" as never, scripts: "y" as never })).toEqual([]);
});

test("a Stripe payment link is Stripe; a link to stripe.com is not", () => {
  const pay = page("", `<a class="btn" href="https://buy.stripe.com/test_4gw5kF0aB1cD">Buy now</a>`);
  expect(detectTech({ html: pay })).toEqual([
    { name: "Stripe", category: "payments", evidence: "link https://buy.stripe.com/test_4gw5kF0aB1cD" },
  ]);
  expect(detectTech({ html: page("", `<a href="https://stripe.com/">Stripe</a>`) })).toEqual([]);
});

test("requiredLiteral: the literal every match must contain, or null when none is safe", () => {
  expect(requiredLiteral(/js\.stripe\.com\/v\d/i)).toBe("js.stripe.com/v");
  expect(requiredLiteral(/cdn[0-9]?\.mxpnl\.com\/libs\/mixpanel/i)).toBe(".mxpnl.com/libs/mixpanel");
  expect(requiredLiteral(/jssdkcdns?\.mparticle\.com\//i)).toBe(".mparticle.com/");
  expect(requiredLiteral(/\bmixpanel\.init\(\s*['"][0-9a-f]{32}['"]/)).toBe("mixpanel.init(");
  expect(requiredLiteral(/(?:edge|rs)\.fullstory\.com\/s\/fs\.js/i)).toBe(".fullstory.com/s/fs.js");
  expect(requiredLiteral(/a|bcdefgh/)).toBeNull();
  expect(requiredLiteral(/\/(?:matomo|piwik)\.js(?:\?|$)/i)).toBeNull();
  // Every rule's literal really is in a string its pattern matches (checked on the rules' own examples).
  for (const r of TECH_RULES) {
    for (const re of [...(r.urls ?? []), ...(r.code ?? [])]) {
      const lit = requiredLiteral(re);
      if (lit) expect(re.source.toLowerCase().replace(/\\/g, "")).toContain(lit.replace(/\\/g, ""));
    }
  }
});
