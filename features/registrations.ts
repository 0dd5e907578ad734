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
import "./writings/feed.ts";
import "./books/feed.ts";
import "./questions/feed.ts";
import "./creator/kinds.ts";
import "./questions/subject.ts";
import "./subjects/counters.ts";
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
import "./encyclopedia/handlers.ts";
import "./writings/search.ts";
import "./books/search.ts";
import "./questions/search.ts";
import "./encyclopedia/search.ts";
import "./circles/search.ts";
import "./accounts/search.ts";
import "./search/handlers.ts";
import "./payments/jobs.ts";
import "../server/maintenance.ts";

completeRegistrations();
sealJobs();
