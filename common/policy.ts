import { AppError } from "./app-error.ts";

/**
 * The policy convention. Each domain has `features/<domain>/policy.ts` exporting a pure
 * `can(actor, action, resource?)`; API handlers, page loaders and actions all ask it, and loaders
 * hand the answers to the page (`can: { edit: true, … }`) so it shows only buttons that work.
 * The actor is the presented viewer, or null for a visitor.
 */
export interface Actor {
  id: number;
  userType: string;
}

/**
 * Refuses what the policy refused: a visitor must sign in first (401; pages turn it into the login
 * redirect), a signed-in viewer is forbidden (403).
 */
export function authorize(actor: Actor | null, allowed: boolean): void {
  if (!allowed) throw new AppError(actor ? "forbidden" : "not_authenticated");
}
