import { ensureBuild } from "../../scripts/build-if-needed.ts";

/** The pages project renders the built site in process: build it first when its sources changed. */
export default async function setup() {
  await ensureBuild();
}
