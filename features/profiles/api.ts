import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Viewer } from "../accounts/viewer.ts";
import { jsonRoute, requireSignedIn } from "../../server/lib/operation.ts";
import { changePasswordOperation, getOwnProfileOperation, getPublicProfileOperation, updateOwnProfileOperation } from "./operations.ts";
import { authorize } from "../../common/policy.ts";
import { can as canAccount } from "../accounts/policy.ts";
import { readUploadedFile } from "../attachments/multipart.server.ts";
import { uploadRateLimit } from "../attachments/api.ts";
import { maxImageBytes } from "../attachments/constants.ts";
import { setAvatar } from "./service.ts";

export async function profilesApi(app: FastifyInstance): Promise<void> {
  /** The account's own settings: a visitor is asked to sign in (the accounts policy lets everyone manage their own). */
  const signedIn = async (request: FastifyRequest): Promise<Viewer> => {
    const viewer = requireSignedIn(await request.viewer());
    authorize(viewer, canAccount(viewer, "manage_account", { userId: viewer.id }));
    return viewer;
  };

  jsonRoute(app, "GET", "/api/Users/profile/", getOwnProfileOperation, {
    tags: ["profiles"],
    summary: "One's own profile settings",
    cache: "no-store",
  });
  jsonRoute(app, "PATCH", "/api/Users/profile/", updateOwnProfileOperation, {
    tags: ["profiles"],
    summary: "Edit any subset of nickname, signature, self_description, gender, birthday, country, school, profession, hogwarts_school",
    cache: "no-store",
  });

  jsonRoute(app, "POST", "/api/Users/password/", changePasswordOperation, {
    tags: ["profiles"],
    summary: "Change one's password: every other session ends, this client gets a new one",
    cache: "no-store",
  });

  /** Multipart, field `file`: JPG or PNG up to 2 MB. Answers the new avatar URLs. */
  app.post("/api/Users/avatar/", { schema: { hide: true }, config: { rateLimit: uploadRateLimit } }, async (request, reply) => {
    const viewer = await signedIn(request);
    const file = await readUploadedFile(request, { maxBytes: maxImageBytes });
    const avatar = await setAvatar({ db: app.db, files: app.files }, viewer.id, file.bytes);
    reply.header("cache-control", "no-store");
    return { avatar: avatar.avatar, avatar_small: avatar.avatarSmall };
  });

  jsonRoute(app, "GET", "/api/Users/profile/:username/", getPublicProfileOperation, {
    tags: ["profiles"],
    summary: "A public profile, the viewer's follow state and what they may do with it",
    cache: "no-store",
  });
}
