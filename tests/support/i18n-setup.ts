// Tests call services and presenters directly, as the server does after `server/app.ts` loaded
// both languages' core catalogs.
import "../../common/i18n-core.ts";
// And its subject kinds and event handlers (features/registrations.ts), as server/app.ts does.
import "../../features/registrations.ts";
