import { z } from "zod";
import { defineOperation } from "../../server/lib/operation.ts";
import { applyAsCreator, monetizationStatus, type MonetizationStatus } from "./service.ts";

const statusAnswer = z.strictObject({
  user_type: z.string(),
  participant: z.boolean(),
  paths: z.array(
    z.strictObject({
      key: z.string(),
      criteria: z.array(
        z.strictObject({
          key: z.string(),
          required: z.number().int(),
          bound: z.enum(["at_least", "at_most"]),
          current: z.number().int(),
          met: z.boolean(),
        }),
      ),
    }),
  ),
  application: z.strictObject({ status: z.enum(["pending", "approved", "rejected"]), reason: z.string().nullable() }).nullable(),
});

export function presentMonetization(status: MonetizationStatus): z.infer<typeof statusAnswer> {
  return {
    user_type: status.userType,
    participant: status.participant,
    paths: status.paths,
    application: status.application,
  };
}

export const monetizationOperation = defineOperation({
  name: "monetization",
  input: {},
  viewer: "signed-in",
  run: (services, viewer) => monetizationStatus(services.db, viewer.id, services.now()),
  present: presentMonetization,
  response: statusAnswer,
  failures: [],
});

export const applyOperation = defineOperation({
  name: "monetizationApply",
  input: {},
  viewer: "signed-in",
  run: (services, viewer) => applyAsCreator({ db: services.db }, viewer.id, services.now()),
  present: presentMonetization,
  response: statusAnswer,
  failures: ["already_applied"],
});
