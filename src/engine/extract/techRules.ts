/**
 * Rivals' own technology rule table (MIT, written for Rivals — not derived from Wappalyzer's GPL rules).
 *
 * Each rule names one technology and where it shows:
 * - `urls`: resource URLs the page loads (script src, stylesheet/preload href, iframe/img/source src,
 *   form action) — host and path signatures such as `js.stripe.com`;
 * - `code`: code signatures in the page's markup and inline scripts (text nodes, i.e. prose, are removed
 *   before matching), such as `__NEXT_DATA__` or `Munchkin.init(`;
 * - `links`: anchors' href (only for links that are themselves the product, e.g. a Stripe payment link);
 * - `headers`: response header name → value pattern (`/./` for "present");
 * - `cookies`: cookie names (from Set-Cookie, or given);
 * - `meta`: `<meta name="generator">` content;
 * - `implies`: technologies this one proves (Next.js → React).
 * Patterns are precise on purpose: a word in a paragraph never matches.
 */

export type TechCategory =
  | "analytics"
  | "tag_manager"
  | "cdp"
  | "marketing_automation"
  | "crm"
  | "sales_intelligence"
  | "chat"
  | "support"
  | "payments"
  | "ecommerce"
  | "experimentation"
  | "feature_flags"
  | "framework"
  | "javascript_library"
  | "cms"
  | "docs"
  | "cdn"
  | "hosting"
  | "web_server"
  | "auth"
  | "security"
  | "error_tracking"
  | "monitoring"
  | "session_replay"
  | "advertising"
  | "consent"
  | "video"
  | "search"
  | "fonts"
  | "forms"
  | "scheduling"
  | "product_adoption"
  | "status_page"
  | "reviews"
  | "maps"
  | "backend";

export interface TechRule {
  name: string;
  category: TechCategory;
  urls?: RegExp[];
  code?: RegExp[];
  links?: RegExp[];
  headers?: Record<string, RegExp>;
  cookies?: RegExp[];
  meta?: RegExp[];
  implies?: string[];
}

const ANY = /./;

export const TECH_RULES: readonly TechRule[] = [
  // ---------------------------------------------------------------- analytics
  {
    name: "Google Analytics",
    category: "analytics",
    urls: [
      /googletagmanager\.com\/gtag\/js\?(?:[^"' ]*&)?id=(?:G|UA)-/i,
      /google-analytics\.com\/(?:analytics|ga|urchin)\.js/i,
      /google-analytics\.com\/(?:g\/)?collect/i,
    ],
    code: [
      /gtag\(\s*['"]config['"]\s*,\s*['"](?:G|UA)-[A-Z0-9-]+['"]/,
      /GoogleAnalyticsObject/,
      /\bga\(\s*['"]create['"]\s*,\s*['"]UA-/,
    ],
  },
  {
    name: "Segment",
    category: "cdp",
    urls: [/cdn\.segment\.(?:com|io)\/analytics(?:\.js|-next)/i, /cdn\.segment\.(?:com|io)\/v1\/projects\//i],
    code: [
      /cdn\.segment\.(?:com|io)\/analytics\.js\/v1\//,
      /analytics\._writeKey\s*=/,
      /api\.segment\.io\/v1/,
    ],
  },
  {
    name: "Mixpanel",
    category: "analytics",
    urls: [/cdn[0-9]?\.mxpnl\.com\/libs\/mixpanel/i, /cdn\.mxpnl\.com/i],
    code: [
      /\bmixpanel\.init\(\s*['"][0-9a-f]{32}['"]/,
      /MIXPANEL_CUSTOM_LIB_URL/,
      /cdn\.mxpnl\.com\/libs\/mixpanel/,
    ],
  },
  {
    name: "Amplitude",
    category: "analytics",
    urls: [/cdn\.amplitude\.com\/(?:libs|script)\//i, /api2?\.amplitude\.com/i],
    code: [
      /amplitude\.getInstance\(\)\.init\(/,
      /\bamplitude\.init\(\s*['"][0-9a-f]{32}['"]/,
      /cdn\.amplitude\.com\/(?:libs|script)\//,
    ],
  },
  {
    name: "Heap",
    category: "analytics",
    urls: [/cdn\.(?:us\.)?heapanalytics\.com\/js\/heap-/i],
    code: [/\bheap\.load\(\s*['"]\d+['"]/, /cdn\.(?:us\.)?heapanalytics\.com/],
  },
  {
    name: "PostHog",
    category: "analytics",
    urls: [
      /(?:[a-z-]+\.)?(?:i\.)?posthog\.com\/static\/(?:array|recorder)/i,
      /[a-z]+-assets\.i\.posthog\.com/i,
    ],
    code: [/\bposthog\.init\(\s*['"]phc_[A-Za-z0-9]+['"]/, /['"]phc_[A-Za-z0-9]{30,}['"]/],
    cookies: [/^ph_phc_[A-Za-z0-9]+_posthog$/],
  },
  {
    name: "Plausible",
    category: "analytics",
    urls: [/plausible\.io\/js\/(?:script|plausible)[\w.-]*\.js/i],
    code: [/window\.plausible\s*=\s*window\.plausible\s*\|\|/],
  },
  { name: "Fathom", category: "analytics", urls: [/cdn\.usefathom\.com\/script\.js/i] },
  {
    name: "Hotjar",
    category: "session_replay",
    urls: [/static\.hotjar\.com\/c\/hotjar-/i, /script\.hotjar\.com\//i],
    code: [/\b_hjSettings\s*=\s*\{\s*hjid/, /static\.hotjar\.com\/c\/hotjar-/],
  },
  {
    name: "FullStory",
    category: "session_replay",
    urls: [/(?:edge|rs)\.fullstory\.com\/s\/fs\.js/i],
    code: [/window\[['"]_fs_org['"]\]\s*=/, /window\['_fs_namespace'\]/, /\b_fs_org\s*=\s*['"]/],
  },
  {
    name: "Microsoft Clarity",
    category: "session_replay",
    urls: [/clarity\.ms\/tag\//i],
    code: [/clarity\.ms\/tag\//],
  },
  {
    name: "Matomo",
    category: "analytics",
    urls: [/\/(?:matomo|piwik)\.js(?:\?|$)/i, /cdn\.matomo\.cloud\//i],
    code: [/\b_paq\.push\(\s*\[\s*['"]setSiteId['"]/, /\b_paq\.push\(\s*\[\s*['"]trackPageView['"]/],
  },
  {
    name: "Pendo",
    category: "product_adoption",
    urls: [/cdn\.(?:eu\.)?pendo\.io\/agent\/static\//i],
    code: [/\bpendo\.initialize\(/, /cdn\.(?:eu\.)?pendo\.io\/agent\/static\//],
  },
  {
    name: "Vercel Analytics",
    category: "analytics",
    urls: [/\/_vercel\/insights\/script\.js/i, /va\.vercel-scripts\.com\//i],
  },
  { name: "Simple Analytics", category: "analytics", urls: [/scripts\.simpleanalyticscdn\.com\//i] },
  { name: "Crazy Egg", category: "analytics", urls: [/script\.crazyegg\.com\/pages\/scripts\//i] },
  {
    name: "Adobe Analytics",
    category: "analytics",
    urls: [/\/AppMeasurement(?:\.min)?\.js/i, /\.omtrdc\.net\//i, /\.2o7\.net\//i],
    code: [/\bs_gi\(\s*['"]/],
  },
  // ---------------------------------------------------------------- tag managers
  {
    name: "Google Tag Manager",
    category: "tag_manager",
    urls: [/googletagmanager\.com\/gtm\.js/i, /googletagmanager\.com\/ns\.html\?id=GTM-/i],
    code: [/googletagmanager\.com\/gtm\.js/, /googletagmanager\.com\/ns\.html\?id=GTM-/],
  },
  {
    name: "Tealium",
    category: "tag_manager",
    urls: [/tags\.tiqcdn\.com\/utag\//i],
    code: [/tags\.tiqcdn\.com\/utag\//, /\butag_data\s*=/],
  },
  {
    name: "Adobe Experience Platform Tags",
    category: "tag_manager",
    urls: [/assets\.adobedtm\.com\//i],
    code: [/assets\.adobedtm\.com\//],
  },
  // ---------------------------------------------------------------- CDPs
  {
    name: "RudderStack",
    category: "cdp",
    urls: [/cdn\.rudderlabs\.com\//i],
    code: [/\brudderanalytics\.load\(/],
  },
  {
    name: "mParticle",
    category: "cdp",
    urls: [/jssdkcdns?\.mparticle\.com\//i],
    code: [/jssdkcdns?\.mparticle\.com\//],
  },
  { name: "Hightouch Events", category: "cdp", urls: [/cdn\.hightouch-events\.com\//i] },
  // ---------------------------------------------------------------- CRM / marketing automation
  {
    name: "HubSpot",
    category: "marketing_automation",
    urls: [
      /js(?:-[a-z0-9]+)?\.hs-scripts\.com\//i,
      /js(?:-[a-z0-9]+)?\.hsforms\.net\//i,
      /js(?:-[a-z0-9]+)?\.hs-analytics\.net\//i,
      /js(?:-[a-z0-9]+)?\.hs-banner\.com\//i,
      /js\.hscollectedforms\.net\//i,
      /js(?:-[a-z0-9]+)?\.hubspot\.com\//i,
    ],
    code: [
      /hbspt\.forms\.create\(/,
      /js(?:-[a-z0-9]+)?\.hs-scripts\.com\//,
      /js(?:-[a-z0-9]+)?\.hsforms\.net\//,
    ],
    cookies: [/^__hstc$/, /^hubspotutk$/, /^__hssc$/],
  },
  {
    name: "Marketo",
    category: "marketing_automation",
    urls: [/munchkin\.marketo\.net\//i, /\/js\/forms2\/js\/forms2(?:\.min)?\.js/i, /\.mktoweb\.com\//i],
    code: [
      /\bMunchkin\.init\(\s*['"]\d{3}-[A-Z]{3}-\d{3}['"]/,
      /\bMktoForms2\.loadForm\(/,
      /munchkin\.marketo\.net\//,
    ],
    cookies: [/^_mkto_trk$/],
  },
  {
    name: "Pardot",
    category: "marketing_automation",
    urls: [/pi\.pardot\.com\//i, /go\.pardot\.com\//i, /\.pardot\.com\/pd\.js/i],
    code: [/\bpiAId\s*=\s*['"]\d+['"]/, /pi\.pardot\.com\/pd\.js/],
    cookies: [/^visitor_id\d+(?:-hash)?$/, /^pardot$/],
  },
  {
    name: "Salesforce",
    category: "crm",
    urls: [
      /\.my\.salesforce\.com\//i,
      /service\.force\.com\/embeddedservice\//i,
      /\.my\.site\.com\/.*embeddedservice/i,
      /\.salesforce-scrt\.com\//i,
    ],
    code: [
      /webto\.salesforce\.com\/servlet\/servlet\.WebToLead/,
      /embeddedservice_bootstrap\.init\(/,
      /embedded_svc\.init\(/,
    ],
  },
  {
    name: "Customer.io",
    category: "marketing_automation",
    urls: [/assets\.customer\.io\/assets\/track(?:-eu)?\.js/i],
    code: [/assets\.customer\.io\/assets\/track/],
  },
  {
    name: "Klaviyo",
    category: "marketing_automation",
    urls: [/static\.klaviyo\.com\/onsite\/js\//i],
    code: [/static\.klaviyo\.com\/onsite\/js\//],
  },
  {
    name: "Mailchimp",
    category: "marketing_automation",
    urls: [/chimpstatic\.com\/mcjs-connected\//i, /\.list-manage\.com\/subscribe/i],
    code: [/\.list-manage\.com\/subscribe\/post/],
  },
  {
    name: "ActiveCampaign",
    category: "marketing_automation",
    urls: [/\.activehosted\.com\//i, /diffuser-cdn\.app-us1\.com\//i],
    code: [/trackcmp\.net\/visit/],
  },
  {
    name: "Braze",
    category: "marketing_automation",
    urls: [/js\.appboycdn\.com\/web-sdk\//i, /\.braze\.(?:com|eu)\/web-sdk\//i],
  },
  { name: "Iterable", category: "marketing_automation", urls: [/js\.iterable\.com\//i] },
  // ---------------------------------------------------------------- sales intelligence / ABM
  {
    name: "Clearbit",
    category: "sales_intelligence",
    urls: [/tag\.clearbitscripts\.com\//i, /x\.clearbitjs\.com\//i],
  },
  { name: "6sense", category: "sales_intelligence", urls: [/j\.6sc\.co\//i], code: [/j\.6sc\.co\/j\//] },
  {
    name: "Demandbase",
    category: "sales_intelligence",
    urls: [/tag\.demandbase\.com\//i],
    code: [/tag\.demandbase\.com\//],
  },
  {
    name: "ZoomInfo",
    category: "sales_intelligence",
    urls: [/ws\.zoominfo\.com\/pixel\//i, /js\.zi-scripts\.com\//i],
    code: [/ws\.zoominfo\.com\/pixel\//],
  },
  { name: "RB2B", category: "sales_intelligence", urls: [/s3-us-west-2\.amazonaws\.com\/b2bjsstore\//i] },
  // ---------------------------------------------------------------- chat / support
  {
    name: "Intercom",
    category: "chat",
    urls: [/widget\.intercom\.io\/widget\//i, /js\.intercomcdn\.com\//i],
    code: [/\bwindow\.intercomSettings\s*=/, /\bIntercom\(\s*['"]boot['"]/, /widget\.intercom\.io\/widget\//],
    cookies: [/^intercom-(?:id|session|device-id)-[a-z0-9]+$/],
  },
  {
    name: "Drift",
    category: "chat",
    urls: [/js\.driftt\.com\/include\//i],
    code: [/\bdrift\.load\(\s*['"][a-z0-9]+['"]/, /js\.driftt\.com\/include\//],
  },
  {
    name: "Zendesk",
    category: "support",
    urls: [
      /static\.zdassets\.com\/ekr\/snippet\.js/i,
      /\.zendesk\.com\/embeddable/i,
      /static\.zdassets\.com\//i,
    ],
    code: [
      /\bid=["']ze-snippet["']/,
      /static\.zdassets\.com\/ekr\/snippet\.js/,
      /\bzE\(\s*['"]webWidget['"]/,
    ],
  },
  {
    name: "Crisp",
    category: "chat",
    urls: [/client\.crisp\.chat\/l\.js/i],
    code: [/\bCRISP_WEBSITE_ID\s*=/],
  },
  {
    name: "LiveChat",
    category: "chat",
    urls: [/cdn\.livechatinc\.com\/tracking\.js/i],
    code: [/\b__lc\.license\s*=/, /cdn\.livechatinc\.com\/tracking\.js/],
  },
  { name: "Tawk.to", category: "chat", urls: [/embed\.tawk\.to\//i], code: [/embed\.tawk\.to\//] },
  {
    name: "Olark",
    category: "chat",
    urls: [/static\.olark\.com\/jsclient\//i],
    code: [/\bolark\.identify\(/],
  },
  {
    name: "Freshchat",
    category: "chat",
    urls: [/wchat\.freshchat\.com\/js\/widget\.js/i, /\.freshchat\.com\/js\/widget\.js/i],
    code: [/\bfcWidget\.init\(/],
  },
  {
    name: "Freshdesk",
    category: "support",
    urls: [/widget\.freshworks\.com\/widgets\//i],
    code: [/\bFreshworksWidget\(/],
  },
  {
    name: "Qualified",
    category: "chat",
    urls: [/js\.qualified\.com\/qualified\.js/i],
    code: [/js\.qualified\.com\/qualified\.js/],
  },
  {
    name: "Help Scout",
    category: "support",
    urls: [/beacon-v2\.helpscout\.net/i],
    code: [/\bBeacon\(\s*['"]init['"]/],
  },
  { name: "Front Chat", category: "chat", urls: [/chat-assets\.frontapp\.com\//i] },
  { name: "Gorgias", category: "support", urls: [/config\.gorgias\.chat\//i] },
  // ---------------------------------------------------------------- payments / commerce
  {
    name: "Stripe",
    category: "payments",
    urls: [
      /js\.stripe\.com\/v\d/i,
      /js\.stripe\.com\/(?:basil|acacia|clover|dahlia)\//i,
      /checkout\.stripe\.com\//i,
      /buy\.stripe\.com\//i,
      /js\.stripe\.com\/v3\/pricing-table\.js/i,
    ],
    code: [/js\.stripe\.com\/v\d/, /\bStripe\(\s*['"]pk_(?:live|test)_/, /<stripe-pricing-table\b/],
    links: [/^https:\/\/buy\.stripe\.com\/[A-Za-z0-9_]+/i],
    cookies: [/^__stripe_(?:mid|sid)$/],
  },
  {
    name: "Paddle",
    category: "payments",
    urls: [/cdn\.paddle\.com\/paddle\//i],
    code: [/\bPaddle\.(?:Setup|Initialize)\(/, /\bPaddle\.Environment\.set\(/, /cdn\.paddle\.com\/paddle\//],
  },
  {
    name: "Chargebee",
    category: "payments",
    urls: [
      /js\.chargebee\.com\/v2\/chargebee\.js/i,
      /\.chargebee\.com\/hosted_pages\//i,
      /\.chargebeeportal\.com\//i,
    ],
    code: [/\bChargebee\.init\(/, /js\.chargebee\.com\/v2\/chargebee\.js/, /\bdata-cb-site=["']/],
  },
  {
    name: "Braintree",
    category: "payments",
    urls: [/js\.braintreegateway\.com\//i, /\.braintree-api\.com\//i],
    code: [/\bbraintree\.dropin\.create\(/, /\bbraintree\.client\.create\(/],
  },
  {
    name: "PayPal",
    category: "payments",
    urls: [/paypal\.com\/sdk\/js/i, /paypalobjects\.com\/api\/checkout(?:\.min)?\.js/i],
    code: [/\bpaypal\.Buttons\(/, /paypal\.com\/sdk\/js\?client-id=/],
  },
  {
    name: "Recurly",
    category: "payments",
    urls: [/js\.recurly\.com\/v\d\//i],
    code: [/\brecurly\.configure\(/],
  },
  {
    name: "Lemon Squeezy",
    category: "payments",
    urls: [/app\.lemonsqueezy\.com\/js\/lemon\.js/i, /assets\.lemonsqueezy\.com\/lemon\.js/i],
    code: [/\bLemonSqueezy\.Setup\(/, /class=["'][^"']*\blemonsqueezy-button\b/],
  },
  { name: "Adyen", category: "payments", urls: [/checkoutshopper-(?:live|test)[\w-]*\.adyen\.com\//i] },
  {
    name: "Shopify",
    category: "ecommerce",
    urls: [/cdn\.shopify\.com\/s\//i, /cdn\.shopify\.com\/shopifycloud\//i],
    code: [/\bShopify\.shop\s*=\s*['"]/, /\bwindow\.ShopifyAnalytics\b/],
    headers: { "x-shopid": ANY, "x-shopify-stage": ANY },
  },
  // ---------------------------------------------------------------- experimentation / feature flags
  {
    name: "Optimizely",
    category: "experimentation",
    urls: [/cdn(?:-pci)?\.optimizely\.com\/(?:js|public)\//i, /\.optimizely\.com\/datafiles\//i],
    code: [/cdn(?:-pci)?\.optimizely\.com\/js\/\d+\.js/],
  },
  {
    name: "VWO",
    category: "experimentation",
    urls: [/dev\.visualwebsiteoptimizer\.com\//i],
    code: [/\bwindow\._vwo_code\b/, /\b_vwo_code\s*=/, /dev\.visualwebsiteoptimizer\.com\//],
  },
  {
    name: "LaunchDarkly",
    category: "feature_flags",
    urls: [/(?:app|clientsdk|clientstream|events)\.launchdarkly\.com\//i, /launchdarkly-js-client-sdk/i],
    code: [/\bLDClient\.initialize\(/, /clientsdk\.launchdarkly\.com/, /launchdarkly-js-client-sdk/],
  },
  {
    name: "Statsig",
    category: "experimentation",
    urls: [
      /\.statsigapi\.net\//i,
      /api\.statsig\.com\//i,
      /cdn\.jsdelivr\.net\/npm\/(?:statsig-js|@statsig\/)/i,
      /featuregates\.org\//i,
    ],
    code: [
      /\bstatsig\.initialize\(\s*['"]client-/,
      /['"]client-[A-Za-z0-9]{40,}['"]/,
      /\bStatsigClient\(\s*['"]client-/,
    ],
  },
  { name: "AB Tasty", category: "experimentation", urls: [/try\.abtasty\.com\//i] },
  { name: "Split", category: "feature_flags", urls: [/cdn\.split\.io\//i, /sdk\.split\.io\//i] },
  {
    name: "GrowthBook",
    category: "experimentation",
    urls: [/cdn\.growthbook\.io\//i, /cdn\.jsdelivr\.net\/npm\/@growthbook\//i],
    code: [/\bnew GrowthBook\(/],
  },
  { name: "Convert", category: "experimentation", urls: [/cdn-\d+\.convertexperiments\.com\//i] },
  { name: "Kameleoon", category: "experimentation", urls: [/\.kameleoon\.(?:eu|io)\/kameleoon\.js/i] },
  // ---------------------------------------------------------------- frameworks / libraries
  {
    name: "Next.js",
    category: "framework",
    urls: [/\/_next\/static\//i],
    code: [
      /<script[^>]+id=["']__NEXT_DATA__["']/,
      /\bself\.__next_f\.push\(/,
      /\/_next\/static\/(?:chunks|css|media)\//,
    ],
    headers: {
      "x-powered-by": /next\.js/i,
      "x-nextjs-cache": ANY,
      "x-nextjs-prerender": ANY,
      "x-nextjs-stale-time": ANY,
    },
    implies: ["React"],
  },
  {
    name: "Nuxt",
    category: "framework",
    urls: [/\/_nuxt\/[\w.-]+\.(?:js|mjs|css)/i],
    code: [/\bwindow\.__NUXT__\s*=/, /<div[^>]+id=["']__nuxt["']/, /\bid=["']__NUXT_DATA__["']/],
    headers: { "x-powered-by": /nuxt/i },
    implies: ["Vue.js"],
  },
  {
    name: "Gatsby",
    category: "framework",
    code: [/<div[^>]+id=["']___gatsby["']/, /\bwindow\.___gatsby\b/, /\/page-data\/app-data\.json/],
    meta: [/^gatsby\b/i],
    implies: ["React"],
  },
  {
    name: "Remix",
    category: "framework",
    code: [/\bwindow\.__remixContext\s*=/, /\bwindow\.__reactRouterContext\s*=/],
    implies: ["React"],
  },
  {
    name: "React",
    category: "framework",
    urls: [
      /\/react(?:-dom)?(?:\.production|\.development)?(?:\.min)?\.js(?:\?|$)/i,
      /unpkg\.com\/react(?:-dom)?@/i,
      /cdn\.jsdelivr\.net\/npm\/react(?:-dom)?@/i,
    ],
    code: [/\bdata-reactroot(?:=|\s|>)/, /\bdata-reactid=/],
  },
  {
    name: "Vue.js",
    category: "framework",
    urls: [
      /\/vue(?:\.runtime)?(?:\.global)?(?:\.prod)?(?:\.min)?\.js(?:\?|$)/i,
      /unpkg\.com\/vue@/i,
      /cdn\.jsdelivr\.net\/npm\/vue@/i,
    ],
    code: [/\sdata-v-[0-9a-f]{8}(?:=|\s|>)/, /\bdata-server-rendered=["']true["']/],
  },
  {
    name: "Angular",
    category: "framework",
    code: [/\sng-version=["']\d+/, /<[a-z-]+[^>]+_nghost-[a-z0-9]+-c\d+/],
  },
  {
    name: "AngularJS",
    category: "framework",
    urls: [/\/angular(?:\.min)?\.js(?:\?|$)/i],
    code: [/\sng-app(?:=|\s|>)/],
  },
  { name: "Svelte", category: "framework", code: [/\sclass=["'][^"']*\bsvelte-[a-z0-9]{5,8}\b/] },
  {
    name: "SvelteKit",
    category: "framework",
    urls: [/\/_app\/immutable\//i],
    code: [/\b__sveltekit_[a-z0-9]+\s*=/, /\/_app\/immutable\/(?:entry|chunks|nodes)\//],
    implies: ["Svelte"],
  },
  {
    name: "Astro",
    category: "framework",
    code: [/<astro-island\b/, /\sdata-astro-cid-[a-z0-9]+/],
    meta: [/^astro\b/i],
  },
  {
    name: "Ember.js",
    category: "framework",
    code: [/\sclass=["'][^"']*\bember-application\b/, /<meta name=["'][\w-]+\/config\/environment["']/],
  },
  {
    name: "Alpine.js",
    category: "javascript_library",
    urls: [/alpinejs(?:@[\d.]+)?(?:\/dist\/cdn)?(?:\.min)?\.js/i, /\/alpinejs@/i],
  },
  {
    name: "htmx",
    category: "javascript_library",
    urls: [/htmx(?:\.org)?(?:@[\d.]+)?(?:\/dist\/htmx)?(?:\.min)?\.js/i],
  },
  {
    name: "jQuery",
    category: "javascript_library",
    urls: [
      /\/jquery(?:-\d+(?:\.\d+)*)?(?:\.slim)?(?:\.min)?(?:\.[0-9a-f]{6,})?\.js(?:\?|$)/i,
      /code\.jquery\.com\/jquery/i,
      /ajax\.googleapis\.com\/ajax\/libs\/jquery\//i,
    ],
  },
  {
    name: "Bootstrap",
    category: "javascript_library",
    urls: [/\/bootstrap(?:\.bundle)?(?:\.min)?\.(?:js|css)(?:\?|$)/i, /\/bootstrap@\d/i],
  },
  {
    name: "Tailwind CSS",
    category: "javascript_library",
    urls: [/cdn\.tailwindcss\.com/i, /\/tailwind(?:\.min)?\.css(?:\?|$)/i, /\/tailwindcss@\d/i],
  },
  // ---------------------------------------------------------------- CMS / site builders / docs
  {
    name: "WordPress",
    category: "cms",
    urls: [/\/wp-content\/(?:themes|plugins|uploads)\//i, /\/wp-includes\/(?:js|css)\//i],
    code: [/\/wp-content\/(?:themes|plugins)\//, /\/wp-json\/(?:wp\/v2|oembed)\//],
    meta: [/^wordpress\b/i],
    headers: { link: /\/wp-json\/>;\s*rel="https:\/\/api\.w\.org\/"/i, "x-powered-by": /wp engine/i },
  },
  {
    name: "Webflow",
    category: "cms",
    urls: [
      /(?:assets|uploads-ssl|cdn\.prod)\.website-files\.com\//i,
      /assets-global\.website-files\.com\//i,
      /\.webflow\.com\/(?:js|css)\//i,
    ],
    code: [/<html[^>]+\bdata-wf-(?:page|site)=["']/],
    meta: [/^webflow\b/i],
  },
  {
    name: "Contentful",
    category: "cms",
    urls: [/(?:images|assets|videos|downloads)\.ctfassets\.net\//i],
    code: [/(?:images|assets)\.ctfassets\.net\//],
  },
  {
    name: "Ghost",
    category: "cms",
    urls: [
      /\/ghost\/api\/content\//i,
      /cdn\.jsdelivr\.net\/ghost\//i,
      /\/public\/ghost(?:-[a-z]+)?\.(?:min\.)?(?:js|css)/i,
    ],
    code: [/\sdata-ghost=["']/, /\/ghost\/api\/content\//],
    meta: [/^ghost\b/i],
  },
  {
    name: "Sanity",
    category: "cms",
    urls: [/cdn\.sanity\.io\/(?:images|files)\//i],
    code: [/cdn\.sanity\.io\/images\//],
  },
  {
    name: "HubSpot CMS",
    category: "cms",
    urls: [
      /\/hs-fs\/hubfs\//i,
      /\/hubfs\/[^"' ]+/i,
      /\.hubspotusercontent(?:-[a-z0-9]+)?\.net\//i,
      /\/_hcms\//i,
    ],
    code: [/\/_hcms\//, /\/hs-fs\/hubfs\//],
    meta: [/^hubspot\b/i],
    headers: { "x-hs-hub-id": ANY, "x-hs-cache-config": ANY, "x-hs-content-id": ANY },
    implies: ["HubSpot"],
  },
  {
    name: "Framer",
    category: "cms",
    urls: [/framerusercontent\.com\//i, /events\.framer\.com\//i, /framer\.com\/m\//i],
    code: [/\sdata-framer-(?:name|component-type|hydrate-v2|page-optimized)/, /framerusercontent\.com\//],
    meta: [/^framer\b/i],
  },
  {
    name: "Drupal",
    category: "cms",
    urls: [/\/sites\/(?:default|all)\/(?:files|themes|modules)\//i, /\/core\/misc\/drupal(?:\.init)?\.js/i],
    code: [/\bdrupalSettings\b/, /\bjQuery\.extend\(Drupal\.settings/],
    meta: [/^drupal\b/i],
    headers: { "x-drupal-cache": ANY, "x-drupal-dynamic-cache": ANY, "x-generator": /drupal/i },
  },
  {
    name: "Squarespace",
    category: "cms",
    urls: [/static1\.squarespace\.com\//i, /assets\.squarespace\.com\//i],
    code: [/\bSquarespace\.afterBodyLoad\(/],
  },
  {
    name: "Wix",
    category: "cms",
    urls: [/static\.parastorage\.com\//i, /static\.wixstatic\.com\//i],
    headers: { "x-wix-request-id": ANY },
    meta: [/^wix\.com\b/i],
  },
  { name: "Storyblok", category: "cms", urls: [/a(?:-us)?\.storyblok\.com\//i] },
  { name: "Prismic", category: "cms", urls: [/images\.prismic\.io\//i, /static\.cdn\.prismic\.io\//i] },
  { name: "DatoCMS", category: "cms", urls: [/datocms-assets\.com\//i] },
  { name: "Strapi", category: "cms", headers: { "x-powered-by": /strapi/i } },
  { name: "Hugo", category: "cms", meta: [/^hugo\b/i] },
  { name: "Jekyll", category: "cms", meta: [/^jekyll\b/i] },
  {
    name: "Docusaurus",
    category: "docs",
    meta: [/^docusaurus\b/i],
    code: [/<div[^>]+id=["']__docusaurus["']/],
    implies: ["React"],
  },
  {
    name: "GitBook",
    category: "docs",
    urls: [/\.gitbook\.io\//i, /static\.gitbook\.com\//i],
    meta: [/^gitbook\b/i],
  },
  { name: "ReadMe", category: "docs", urls: [/cdn\.readme\.io\//i, /files\.readme\.io\//i] },
  {
    name: "Mintlify",
    category: "docs",
    urls: [/mintlify\.(?:s3|b-cdn)[\w.-]*\//i, /mintcdn\.com\//i],
    meta: [/^mintlify\b/i],
  },
  // ---------------------------------------------------------------- CDN / hosting / servers
  {
    name: "Cloudflare",
    category: "cdn",
    headers: { server: /^cloudflare$/i, "cf-ray": ANY, "cf-cache-status": ANY },
    code: [/\/cdn-cgi\/(?:challenge-platform|scripts\/[\w/.-]*email-decode|l\/email-protection|rum)/],
    cookies: [/^__cf_bm$/, /^__cflb$/, /^cf_clearance$/],
  },
  {
    name: "Fastly",
    category: "cdn",
    headers: {
      "x-served-by": /\bcache-[a-z]{3,4}(?:-[a-z]{3,5})?\d+-[a-z]{3}\b/i,
      "fastly-debug-digest": ANY,
      "x-fastly-request-id": ANY,
      via: /\bfastly\b/i,
    },
  },
  {
    name: "Akamai",
    category: "cdn",
    headers: {
      server: /akamai(?:ghost|netstorage)/i,
      "x-akamai-transformed": ANY,
      "akamai-grn": ANY,
      "akamai-cache-status": ANY,
      "x-akamai-request-id": ANY,
    },
  },
  {
    name: "Amazon CloudFront",
    category: "cdn",
    headers: { "x-amz-cf-id": ANY, "x-amz-cf-pop": ANY, via: /\(cloudfront\)/i, "x-cache": /cloudfront/i },
  },
  {
    name: "Vercel",
    category: "hosting",
    headers: { "x-vercel-id": ANY, "x-vercel-cache": ANY, server: /^vercel$/i },
  },
  { name: "Netlify", category: "hosting", headers: { "x-nf-request-id": ANY, server: /^netlify$/i } },
  { name: "Amazon S3", category: "hosting", headers: { server: /^amazons3$/i } },
  {
    name: "Google Cloud",
    category: "hosting",
    headers: { server: /^google frontend$/i, via: /^1\.1 google$/i },
  },
  {
    name: "GitHub Pages",
    category: "hosting",
    headers: { server: /^github\.com$/i, "x-github-request-id": ANY },
  },
  { name: "Heroku", category: "hosting", headers: { via: /\b(?:vegur|heroku-router)\b/i } },
  { name: "Render", category: "hosting", headers: { "x-render-origin-server": ANY, "rndr-id": ANY } },
  { name: "Fly.io", category: "hosting", headers: { "fly-request-id": ANY, server: /^fly\// } },
  { name: "Azure", category: "cdn", headers: { "x-azure-ref": ANY, "x-msedge-ref": ANY } },
  { name: "Bunny CDN", category: "cdn", headers: { server: /^bunnycdn/i, "cdn-pullzone": ANY } },
  { name: "Nginx", category: "web_server", headers: { server: /^nginx\b/i } },
  { name: "Apache HTTP Server", category: "web_server", headers: { server: /^apache\b/i } },
  // ---------------------------------------------------------------- auth / security
  {
    name: "Auth0",
    category: "auth",
    urls: [
      /cdn\.auth0\.com\/js\//i,
      /[a-z0-9-]+\.(?:[a-z]{2}\.)?auth0\.com\/authorize/i,
      /auth0-spa-js/i,
      /\/auth0-lock/i,
    ],
    code: [/\bcreateAuth0Client\(/, /\bnew\s+auth0\.WebAuth\(/, /cdn\.auth0\.com\/js\//],
  },
  {
    name: "Okta",
    category: "auth",
    urls: [/ok\d+static\.oktacdn\.com\//i, /global\.oktacdn\.com\//i, /okta-signin-widget/i, /okta-auth-js/i],
    code: [/\bnew\s+OktaSignIn\(/, /\bnew\s+OktaAuth\(/],
  },
  {
    name: "Clerk",
    category: "auth",
    urls: [/\/npm\/@clerk\/clerk-js@/i, /clerk\.[a-z0-9.-]+\/npm\/@clerk\//i, /\.clerk\.accounts\.dev\//i],
    code: [
      /\bdata-clerk-publishable-key=["']pk_/,
      /['"]pk_(?:live|test)_[A-Za-z0-9]+['"][^<]{0,200}clerk/i,
      /@clerk\/clerk-js/,
    ],
    cookies: [/^__client_uat(?:_[A-Za-z0-9]+)?$/, /^__clerk_db_jwt/],
  },
  {
    name: "Firebase Authentication",
    category: "auth",
    urls: [
      /gstatic\.com\/firebasejs\/[\d.]+\/firebase-auth/i,
      /\.firebaseapp\.com\/__\/auth\//i,
      /identitytoolkit\.googleapis\.com\//i,
    ],
    code: [/\bfirebase\.auth\(\)/, /\.firebaseapp\.com\/__\/auth\//],
    implies: ["Firebase"],
  },
  {
    name: "Firebase",
    category: "backend",
    urls: [/gstatic\.com\/firebasejs\//i, /\.firebaseio\.com\//i, /\/__\/firebase\/init\.js/i],
    code: [/\bauthDomain\s*:\s*['"][\w-]+\.firebaseapp\.com['"]/, /\bfirebase\.initializeApp\(/],
  },
  {
    name: "Supabase",
    category: "backend",
    urls: [/[a-z0-9]{20}\.supabase\.co\//i, /@supabase\/supabase-js/i],
    code: [/https:\/\/[a-z0-9]{20}\.supabase\.co['"]/],
  },
  { name: "Stytch", category: "auth", urls: [/js\.stytch\.com\//i] },
  {
    name: "Google Sign-In",
    category: "auth",
    urls: [/accounts\.google\.com\/gsi\/client/i],
    code: [/\bid=["']g_id_onload["']/],
  },
  {
    name: "reCAPTCHA",
    category: "security",
    urls: [/(?:google|recaptcha)\.(?:com|net)\/recaptcha\/(?:api|enterprise)\.js/i],
    code: [/\sclass=["'][^"']*\bg-recaptcha\b/],
  },
  {
    name: "hCaptcha",
    category: "security",
    urls: [/(?:js\.)?hcaptcha\.com\/1\/api\.js/i],
    code: [/\sclass=["'][^"']*\bh-captcha\b/],
  },
  {
    name: "Cloudflare Turnstile",
    category: "security",
    urls: [/challenges\.cloudflare\.com\/turnstile\//i],
    code: [/\sclass=["'][^"']*\bcf-turnstile\b/],
  },
  // ---------------------------------------------------------------- error tracking / monitoring
  {
    name: "Sentry",
    category: "error_tracking",
    urls: [/browser\.sentry-cdn\.com\//i, /js(?:-de)?\.sentry-cdn\.com\//i],
    code: [
      /\bSentry\.init\(\s*\{/,
      /https:\/\/[0-9a-f]{32}@(?:o\d+\.)?ingest\.(?:[a-z]{2}\.)?sentry\.io\/\d+/,
      /js\.sentry-cdn\.com\/[0-9a-f]{32}\.min\.js/,
    ],
  },
  {
    name: "Datadog RUM",
    category: "monitoring",
    urls: [/www\.datadoghq-browser-agent\.com\//i, /browser-intake-(?:[a-z0-9-]+-)?datadoghq\.(?:com|eu)/i],
    code: [
      /\bDD_RUM\.init\(/,
      /\bDD_RUM\.onReady\(/,
      /www\.datadoghq-browser-agent\.com\//,
      /\bDD_LOGS\.init\(/,
    ],
  },
  {
    name: "Bugsnag",
    category: "error_tracking",
    urls: [
      /d2wy8f7a9ursnm\.cloudfront\.net\/v\d[\d.]*\/bugsnag/i,
      /\/bugsnag(?:-js)?(?:\.min)?\.js/i,
      /(?:sessions|notify)\.bugsnag\.com/i,
    ],
    code: [/\bBugsnag\.start\(/, /\bbugsnagClient\s*=\s*bugsnag\(/],
  },
  {
    name: "Rollbar",
    category: "error_tracking",
    urls: [/cdn\.rollbar\.com\/rollbarjs\//i, /cdnjs\.cloudflare\.com\/ajax\/libs\/rollbar\.js\//i],
    code: [/\b_rollbarConfig\s*=/],
  },
  {
    name: "LogRocket",
    category: "session_replay",
    urls: [
      /cdn\.(?:logrocket\.(?:io|com)|lr-ingest\.(?:io|com)|lr-in-prod\.com|lr-in\.com|lgrckt-in\.com)\//i,
    ],
    code: [/\bLogRocket\.init\(\s*['"][a-z0-9]+\/[a-z0-9-]+['"]/],
  },
  {
    name: "New Relic",
    category: "monitoring",
    urls: [/js-agent\.newrelic\.com\//i, /bam(?:-cell)?\.nr-data\.net\//i],
    code: [/\bwindow\.NREUM\s*(?:\|\||=)/, /\bNREUM\.(?:info|init|loader_config)\s*=/],
  },
  {
    name: "Dynatrace",
    category: "monitoring",
    urls: [/\/ruxitagentjs_[\w]+\.js/i, /js-cdn\.dynatrace\.com\//i],
    cookies: [/^dtCookie$/, /^rxVisitor$/],
  },
  {
    name: "Elastic APM",
    category: "monitoring",
    urls: [/elastic-apm-rum(?:\.umd)?(?:\.min)?\.js/i],
    code: [/\belasticApm\.init\(/],
  },
  {
    name: "Highlight",
    category: "session_replay",
    urls: [/static\.highlight\.io\//i],
    code: [/\bH\.init\(\s*['"][a-z0-9]+['"]\s*,\s*\{/],
  },
  // ---------------------------------------------------------------- advertising
  {
    name: "Google Ads",
    category: "advertising",
    urls: [
      /googleadservices\.com\/pagead\/conversion/i,
      /googletagmanager\.com\/gtag\/js\?(?:[^"' ]*&)?id=AW-/i,
      /googleads\.g\.doubleclick\.net\/pagead\//i,
    ],
    code: [/gtag\(\s*['"]config['"]\s*,\s*['"]AW-\d+['"]/],
  },
  {
    name: "Meta Pixel",
    category: "advertising",
    urls: [/connect\.facebook\.net\/[a-z_A-Z]+\/fbevents\.js/i, /facebook\.com\/tr\?id=\d+/i],
    code: [/\bfbq\(\s*['"]init['"]\s*,\s*['"]\d+['"]/, /connect\.facebook\.net\/[a-z_A-Z]+\/fbevents\.js/],
  },
  {
    name: "LinkedIn Insight Tag",
    category: "advertising",
    urls: [/snap\.licdn\.com\/li\.lms-analytics\/insight/i, /px\.ads\.linkedin\.com\/collect/i],
    code: [/\b_linkedin_partner_id\s*=\s*['"]?\d+/, /snap\.licdn\.com\/li\.lms-analytics\/insight/],
  },
  {
    name: "X (Twitter) Pixel",
    category: "advertising",
    urls: [/static\.ads-twitter\.com\/(?:uwt|oct)\.js/i],
    code: [/\btwq\(\s*['"](?:init|config)['"]/],
  },
  {
    name: "Reddit Pixel",
    category: "advertising",
    urls: [/redditstatic\.com\/ads\/pixel\.js/i],
    code: [/\brdt\(\s*['"]init['"]/],
  },
  {
    name: "TikTok Pixel",
    category: "advertising",
    urls: [/analytics\.tiktok\.com\/i18n\/pixel\//i],
    code: [/analytics\.tiktok\.com\/i18n\/pixel\//, /\bttq\.load\(\s*['"][A-Z0-9]+['"]/],
  },
  {
    name: "Microsoft Advertising",
    category: "advertising",
    urls: [/bat\.bing\.com\/bat\.js/i],
    code: [/bat\.bing\.com\/bat\.js/],
  },
  { name: "G2 Tracking", category: "advertising", urls: [/tracking\.g2crowd\.com\//i] },
  // ---------------------------------------------------------------- consent
  {
    name: "OneTrust",
    category: "consent",
    urls: [/cdn\.cookielaw\.org\//i, /optanon\.blob\.core\.windows\.net\//i, /cookie-cdn\.cookiepro\.com\//i],
    code: [/\bfunction\s+OptanonWrapper\s*\(/, /\bid=["']onetrust-consent-sdk["']/],
    cookies: [/^OptanonConsent$/],
  },
  {
    name: "Cookiebot",
    category: "consent",
    urls: [/consent(?:cdn)?\.cookiebot\.(?:com|eu)\//i],
    code: [/\bid=["']Cookiebot["'][^>]*data-cbid=/i],
  },
  { name: "Osano", category: "consent", urls: [/cmp\.osano\.com\//i] },
  { name: "TrustArc", category: "consent", urls: [/consent\.trustarc\.com\//i] },
  { name: "Termly", category: "consent", urls: [/app\.termly\.io\/(?:embed|resource-blocker)/i] },
  { name: "iubenda", category: "consent", urls: [/cdn\.iubenda\.com\//i] },
  {
    name: "Usercentrics",
    category: "consent",
    urls: [/app\.usercentrics\.eu\//i, /web\.cmp\.usercentrics\.eu\//i],
  },
  // ---------------------------------------------------------------- video / media
  {
    name: "YouTube",
    category: "video",
    urls: [/(?:www\.)?youtube(?:-nocookie)?\.com\/(?:embed|iframe_api)/i],
  },
  { name: "Vimeo", category: "video", urls: [/player\.vimeo\.com\/(?:video|api)/i] },
  {
    name: "Wistia",
    category: "video",
    urls: [/fast\.wistia\.(?:com|net)\//i],
    code: [/\sclass=["'][^"']*\bwistia_embed\b/],
  },
  { name: "Vidyard", category: "video", urls: [/play\.vidyard\.com\//i] },
  { name: "Loom", category: "video", urls: [/(?:www\.)?loom\.com\/embed\//i] },
  // ---------------------------------------------------------------- search, forms, scheduling, adoption, misc
  {
    name: "Algolia",
    category: "search",
    urls: [
      /[a-z0-9-]+-dsn\.algolia\.net\//i,
      /cdn\.jsdelivr\.net\/npm\/(?:algoliasearch|@docsearch|instantsearch\.js)/i,
      /\/algoliasearch(?:-lite)?(?:\.umd)?(?:\.min)?\.js/i,
    ],
    code: [/\balgoliasearch\(\s*['"][A-Z0-9]{10}['"]/, /\bdocsearch\(\s*\{/],
  },
  {
    name: "Typeform",
    category: "forms",
    urls: [/embed\.typeform\.com\//i, /form\.typeform\.com\/to\//i],
    code: [/\bdata-tf-(?:widget|popup|slider|live)=/],
  },
  { name: "Jotform", category: "forms", urls: [/form\.jotform\.com\//i, /cdn\.jotfor\.ms\//i] },
  { name: "Tally", category: "forms", urls: [/tally\.so\/(?:widgets|embed)\//i] },
  {
    name: "Calendly",
    category: "scheduling",
    urls: [
      /assets\.calendly\.com\/assets\/external\/widget/i,
      /calendly\.com\/[a-z0-9_-]+(?:\/[a-z0-9_-]+)?\?embed/i,
    ],
    code: [/\bCalendly\.initPopupWidget\(/, /\sclass=["'][^"']*\bcalendly-inline-widget\b/],
  },
  {
    name: "Chili Piper",
    category: "scheduling",
    urls: [/js\.chilipiper\.com\//i],
    code: [/\bChiliPiper\.(?:scheduling|submit|deploy)\(/],
  },
  { name: "Appcues", category: "product_adoption", urls: [/fast\.appcues\.com\//i] },
  {
    name: "Userpilot",
    category: "product_adoption",
    urls: [/js\.userpilot\.io\//i],
    code: [/\buserpilotSettings\s*=/],
  },
  { name: "WalkMe", category: "product_adoption", urls: [/cdn\.walkme\.com\//i] },
  { name: "Chameleon", category: "product_adoption", urls: [/fast\.trychameleon\.com\//i] },
  {
    name: "Canny",
    category: "product_adoption",
    urls: [/canny\.io\/sdk\.js/i],
    code: [/\bCanny\(\s*['"](?:render|identify|initChangelog)['"]/],
  },
  {
    name: "Atlassian Statuspage",
    category: "status_page",
    urls: [/\.statuspage\.io\/embed\/script\.js/i, /cdn\.statuspage\.io\//i],
  },
  {
    name: "Trustpilot",
    category: "reviews",
    urls: [/widget\.trustpilot\.com\/bootstrap\//i],
    code: [/\sclass=["'][^"']*\btrustpilot-widget\b/],
  },
  {
    name: "Google Fonts",
    category: "fonts",
    urls: [/fonts\.googleapis\.com\/css2?\?/i, /fonts\.gstatic\.com\//i],
  },
  { name: "Adobe Fonts", category: "fonts", urls: [/use\.typekit\.net\//i, /p\.typekit\.net\//i] },
  {
    name: "Font Awesome",
    category: "fonts",
    urls: [/kit\.fontawesome\.com\//i, /\/font-?awesome(?:\.min)?\.css/i, /use\.fontawesome\.com\//i],
  },
  {
    name: "Google Maps",
    category: "maps",
    urls: [/maps\.googleapis\.com\/maps\/api\/js/i, /(?:www\.)?google\.com\/maps\/embed/i],
  },
  {
    name: "Mapbox",
    category: "maps",
    urls: [/api\.mapbox\.com\/mapbox-gl-js\//i],
    code: [/\bmapboxgl\.accessToken\s*=/],
  },
];
