// A visitor asks for a free competitive brief (the public /free-brief form): one FreeBriefRequested event.
import type { NewEvent } from "../../events/catalog.ts";
import type { EventStore } from "../../events/store.ts";
import { checkUrl, InvalidInput } from "./validate.ts";

export interface RequestFreeBrief {
  company_name?: string;
  website_url?: string;
  email: string;
}

const EMAIL = /^[^\s@<>()",;:]+@[^\s@<>()",;:]+\.[^\s@<>()",;:]+$/;

export function decideRequestFreeBrief(cmd: RequestFreeBrief, id: number, now: Date): NewEvent[] {
  const company = (cmd.company_name ?? "").trim();
  let website = (cmd.website_url ?? "").trim();
  const email = (cmd.email ?? "").trim();
  if (!company && !website) throw new InvalidInput("name the company or its website", "company_name");
  if (company.length > 200)
    throw new InvalidInput("company name is longer than 200 characters", "company_name");
  if (website) {
    if (!/^[a-z][a-z0-9+.-]*:/i.test(website)) website = `https://${website}`;
    if (website.length > 500) throw new InvalidInput("website is longer than 500 characters", "website_url");
    website = checkUrl(website, "website_url");
  }
  if (!EMAIL.test(email) || email.length > 254)
    throw new InvalidInput("email must be an address like name@example.com", "email");
  return [
    {
      type: "FreeBriefRequested",
      orgId: null,
      streamType: "free_brief",
      streamId: String(id),
      data: {
        id,
        ...(company ? { company_name: company } : {}),
        ...(website ? { website_url: website } : {}),
        email,
        requested_at: now.toISOString(),
      },
    },
  ];
}

export async function requestFreeBrief(store: EventStore, cmd: RequestFreeBrief, requestId?: string) {
  const { result } = await store.execute(
    async (w) => {
      const id = await w.nextId();
      const events = decideRequestFreeBrief(cmd, id, w.now);
      const e = events[0];
      if (e.type !== "FreeBriefRequested")
        throw new Error("decideRequestFreeBrief must emit FreeBriefRequested");
      return { events, result: e.data };
    },
    { actor: "visitor", request_id: requestId, source: "web" },
  );
  return result;
}
