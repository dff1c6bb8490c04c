// Shapes carried by the workspace-settings and public-library events (events/catalog.ts).

/** The workspace's own company profile. Lists are absent when empty. */
export interface CompanyProfile {
  description?: string;
  category?: string;
  target_customer?: string;
  value_propositions?: string[];
  differentiators?: string[];
  exclusions?: string[];
}

export const PROFILE_TEXT_FIELDS = ["description", "category", "target_customer"] as const;
export const PROFILE_LIST_FIELDS = ["value_propositions", "differentiators", "exclusions"] as const;
export type ProfileTextField = (typeof PROFILE_TEXT_FIELDS)[number];
export type ProfileListField = (typeof PROFILE_LIST_FIELDS)[number];

/** A change to the profile: a value sets a field; null clears it (an empty string or list was sent). */
export type CompanyProfileChanges = {
  [K in ProfileTextField]?: string | null;
} & {
  [K in ProfileListField]?: string[] | null;
};

/** The ideal customer profile: the dimensions update_icp sets. */
export interface IcpProfile {
  industries?: string[];
  buyer_roles?: string[];
}
export const ICP_DIMENSIONS = ["industries", "buyer_roles"] as const;
export type IcpDimension = (typeof ICP_DIMENSIONS)[number];

export interface PublicBriefFinding {
  text: string;
  category?: string;
  date?: string;
}

export interface PublicBriefSource {
  title?: string;
  url: string;
}

export interface PublicBriefRecord {
  company_name: string;
  domain?: string;
  title: string;
  summary?: string;
  findings: PublicBriefFinding[];
  sources: PublicBriefSource[];
  published_at: string;
}

export interface GuideRecord {
  title: string;
  excerpt?: string;
  body_markdown: string;
  published_at: string;
}
