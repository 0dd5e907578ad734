/**
 * Loads every subject kind's registration and every event handler, once, then seals the
 * registries (using them before this has run throws). The composition root (server/app.ts), the
 * test set-up and the scripts import this file; a new kind, handler or job file is added here.
 */
import { completeRegistrations } from "./subjects/registry.ts";
import { sealJobs } from "./jobs/registry.ts";
import "./accounts/subject.ts";
import "./circles/subject.ts";
import "./writings/subject.ts";
import "./books/subject.ts";
import "./encyclopedia/subject.ts";
import "./comments/subject.ts";
import "./questions/subject.ts";
import "./subjects/counters.ts";
import "./subjects/hot.ts";
import "./reactions/dependents.ts";
import "./favorites/dependents.ts";
import "./reports/dependents.ts";
import "./circles/pins.ts";
import "./messages/handlers.ts";
import "./writings/handlers.ts";
import "./comments/handlers.ts";
import "./books/handlers.ts";
import "./questions/handlers.ts";
import "./tips/handlers.ts";
import "./paywall/handlers.ts";
import "./feedback/handlers.ts";
import "./encyclopedia/handlers.ts";
import "./search/handlers.ts";
import "./payments/jobs.ts";
import "./trade/handlers.ts";
import "./trade/jobs.ts";
import "./settlement/jobs.ts";
import "./metrics/jobs.ts";
import "./admin/jobs.ts";
import "./missions/jobs.ts";
import "./cashouts/handlers.ts";
import "./cashouts/jobs.ts";
import "./ads/jobs.ts";
import "./monetization/handlers.ts";
import "./monetization/jobs.ts";
import "./trust/jobs.ts";
import "../server/maintenance.ts";

completeRegistrations();
sealJobs();
