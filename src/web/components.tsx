// Small pieces the pages share. Every untrusted string goes through `safe` or Html.escapeHtml.
/** @jsxRuntime classic */
/** @jsx Html.createElement */
/** @jsxFrag Html.Fragment */
import { Html } from "@elysiajs/html";
import { PASSWORD_MAX, PASSWORD_MIN } from "../domain/members.ts";
import { label } from "../domain/vocabulary.ts";
import { formatTime, isHttpUrl } from "./http.ts";

type Obj = Record<string, unknown>;

export function Time({ ts }: { ts: unknown }): JSX.Element {
  if (typeof ts !== "string" || !ts) return "";
  return (
    <time datetime={ts} safe>
      {formatTime(ts)}
    </time>
  );
}

export function Severity({ level }: { level: unknown }): JSX.Element {
  if (level !== "low" && level !== "medium" && level !== "high") return "";
  return <span class={`badge sev-${level}`}>{level}</span>;
}

/** A link only when the address is http(s); otherwise the text alone. */
export function ExternalLink({ href, text }: { href: unknown; text?: unknown }): JSX.Element {
  const label = typeof text === "string" && text ? text : typeof href === "string" ? href : "";
  if (!isHttpUrl(href)) return <span safe>{label}</span>;
  return (
    <a href={href} rel="nofollow noopener noreferrer" safe>
      {label}
    </a>
  );
}

/** A text a person reads, its http(s) addresses as links (a summary that names a page links to it). */
export function Prose({ text }: { text: unknown }): JSX.Element {
  if (typeof text !== "string" || !text) return "";
  const parts = text.split(/(https?:\/\/[^\s<>"()]+[^\s<>"().,;:!?])/);
  return (
    <>
      {parts.map((p, i) => (i % 2 === 1 && isHttpUrl(p) ? <ExternalLink href={p} /> : <span safe>{p}</span>))}
    </>
  );
}

export interface EvidenceItem {
  text?: string;
  source_title?: string;
  source_url?: string;
  observed_at?: string;
}

export function EvidenceList({ items }: { items: unknown }): JSX.Element {
  const list = Array.isArray(items) ? (items as EvidenceItem[]) : [];
  if (list.length === 0) return <p class="muted">No evidence recorded.</p>;
  return (
    <ol class="evidence">
      {list.map((e) => (
        <li>
          {e.text ? <blockquote safe>{e.text}</blockquote> : ""}
          <div class="muted small">
            {e.source_url || e.source_title ? (
              <ExternalLink href={e.source_url} text={e.source_title || e.source_url} />
            ) : (
              ""
            )}
            {e.observed_at ? (
              <>
                {" · observed "}
                <Time ts={e.observed_at} />
              </>
            ) : (
              ""
            )}
          </div>
        </li>
      ))}
    </ol>
  );
}

const humanKey = (k: string) => k.replaceAll("_", " ").replace(/^./, (c) => c.toUpperCase());
const ISO_TIME = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;
const SLUG = /^[a-z]+(?:_[a-z0-9]+)+$/;

/** Any JSON value, readably: strings (links when http(s)), lists, nested tables. Free-form objects
 * (competitor reads, battlecard evidence, digest items) go through here. */
export function Value({ value, depth = 0 }: { value: unknown; depth?: number }): JSX.Element {
  if (value === null || value === undefined || value === "") return "";
  if (typeof value === "string") {
    if (isHttpUrl(value)) return <ExternalLink href={value} />;
    // A time as people write it, a slug by its label: never the machine's form.
    if (ISO_TIME.test(value)) return <Time ts={value} />;
    if (SLUG.test(value)) return <span safe>{label(value)}</span>;
    return <span safe>{value}</span>;
  }
  if (typeof value === "number" || typeof value === "boolean") return <span safe>{String(value)}</span>;
  if (depth > 6) return <code safe>{JSON.stringify(value)}</code>;
  if (Array.isArray(value)) {
    if (value.length === 0) return "";
    return (
      <ul>
        {value.map((v) => (
          <li>
            <Value value={v} depth={depth + 1} />
          </li>
        ))}
      </ul>
    );
  }
  const entries = Object.entries(value as Obj).filter(([, v]) => v !== undefined && v !== null && v !== "");
  if (entries.length === 0) return "";
  return (
    <dl class="kv">
      {entries.map(([k, v]) => (
        <>
          <dt safe>{humanKey(k)}</dt>
          <dd>
            <Value value={v} depth={depth + 1} />
          </dd>
        </>
      ))}
    </dl>
  );
}

/** Label/value rows; rows whose value is blank are left out. */
export function Facts({ rows }: { rows: [string, JSX.Element | string | number | undefined | null][] }) {
  const shown = rows.filter(([, v]) => v !== undefined && v !== null && v !== "");
  if (shown.length === 0) return "";
  return (
    <dl class="kv">
      {shown.map(([k, v]) => (
        <>
          <dt safe>{k}</dt>
          <dd>{typeof v === "number" ? String(v) : (v as "safe")}</dd>
        </>
      ))}
    </dl>
  );
}

/** Text as a safe span (for Facts rows). */
export const text = (v: unknown): string | undefined =>
  typeof v === "string" && v.trim() !== ""
    ? Html.escapeHtml(v)
    : typeof v === "number"
      ? String(v)
      : undefined;

export function Pager({
  page,
  hasNext,
  href,
}: {
  page: number;
  hasNext: boolean;
  href: (page: number) => string;
}): JSX.Element {
  if (page <= 1 && !hasNext) return "";
  return (
    <nav class="pager" aria-label="Pages">
      {page > 1 ? (
        <a href={href(page - 1)} rel="prev">
          ← Newer
        </a>
      ) : (
        ""
      )}
      <span class="muted">Page {Html.escapeHtml(String(page))}</span>
      {hasNext ? (
        <a href={href(page + 1)} rel="next">
          Older →
        </a>
      ) : (
        ""
      )}
    </nav>
  );
}

export function Notice({ children, kind = "notice" }: { children?: JSX.Element | string; kind?: string }) {
  return (
    <p class={kind} role={kind === "error" ? "alert" : "status"}>
      {children as "safe"}
    </p>
  );
}

/** One team note in a list: what was written, by whom (a member who left no name is "A member"), when. */
export function TeamNote({ note }: { note: { body: string; author_name?: string; created_at: string } }) {
  return (
    <li>
      <p class="note" safe>
        {note.body}
      </p>
      <p class="muted small">
        {note.author_name ? <span safe>{note.author_name}</span> : "A member"}, <Time ts={note.created_at} />
      </p>
    </li>
  );
}

/** The hidden CSRF field every POST form carries. */
export function Csrf({ token }: { token: string }): JSX.Element {
  return <input type="hidden" name="csrf" value={token} />;
}

/** A one-button POST form for a destructive action in a table row of a workspace page: the CSRF token,
 * the workspace, any extra hidden fields, and a button whose accessible name says what it acts on. */
export function DangerAction(p: {
  action: string;
  csrf: string;
  org: string;
  label: string;
  ariaLabel: string;
  hidden?: Record<string, string>;
}): JSX.Element {
  return (
    <form method="post" action={p.action} class="inline">
      <Csrf token={p.csrf} />
      <input type="hidden" name="org" value={p.org} />
      {Object.entries(p.hidden ?? {}).map(([name, value]) => (
        <input type="hidden" name={name} value={value} />
      ))}
      <button type="submit" class="secondary danger" aria-label={p.ariaLabel}>
        {Html.escapeHtml(p.label)}
      </button>
    </form>
  );
}

/** A labelled password field. `new` is one being chosen, with the length rule; `current` is one the person
 * already has (browsers fill it from their password manager). */
export function PasswordField(p: { id: string; name: string; label: string; kind: "current" | "new" }) {
  return (
    <>
      <label for={p.id}>{Html.escapeHtml(p.label)}</label>
      <input
        id={p.id}
        name={p.name}
        type="password"
        autocomplete={p.kind === "new" ? "new-password" : "current-password"}
        required
        minlength={p.kind === "new" ? String(PASSWORD_MIN) : undefined}
        maxlength={String(PASSWORD_MAX)}
      />
    </>
  );
}
