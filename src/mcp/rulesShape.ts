// The shape of delivery rules in tool arguments and results (src/domain/deliveryRules.ts): one for the delivery
// channels (get_delivery_settings, set_delivery_channels) and the webhook endpoints (add_webhook, list_webhooks).
import { z } from "zod";
import { RULE_CATEGORIES } from "../domain/deliveryRules.ts";
import { SEVERITY, WATCH } from "../domain/records.ts";

export const rulesShape = z.object({
  competitor_ids: z.array(z.number().int()).max(100).optional(),
  watch: z.enum(WATCH).optional(),
  categories: z
    .array(z.string().max(40))
    .max(20)
    .optional()
    .describe(`Of ${RULE_CATEGORIES.join(", ")}.`),
  min_severity: z.enum(SEVERITY).optional(),
});
