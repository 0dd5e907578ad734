import { redirect } from "react-router";
import type { Route } from "./+types/writing";
import { getAppContext, signedInFormPost } from "../lib/context.server.ts";
import { readingPage } from "../lib/writing-pages.server.ts";
import { writingMeta } from "../lib/writing-meta.ts";
import { contentStylesheets } from "../components/rendered-content.tsx";
import { WritingView } from "../components/writing-view.tsx";
import { localizePath, pageUrl } from "../../common/locale.ts";
import { deleteWritingOperation } from "../../features/writings/operations.ts";
import {
  approveRefundOperation,
  rejectRefundOperation,
  requestRefundOperation,
  unlockOperation,
} from "../../features/paywall/operations.ts";
import { claimRedPacketOperation, fundRedPacketOperation } from "../../features/red-packets/operations.ts";
import { commentIntents } from "../lib/comment-pages.server.ts";
import { dispatchIntent, failuresOnErrorScreen, formAction, type FormPost } from "../../server/lib/operation.ts";
import type { CommentFormFailure } from "../components/comment-section.tsx";

export const links: Route.LinksFunction = () => [...contentStylesheets];
export const meta: Route.MetaFunction = ({ location, loaderData }) => writingMeta(location, loaderData);
export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

/** Articles and serialized articles (/circles/{cid}/writing/{id} and …/{id}/{lang}) and posts (/circles/{cid}/posts/{id}). */
export async function loader({ context, params, request }: Route.LoaderArgs) {
  const post = /\/posts\/\d+\/?$/.test(pageUrl(request.url).pathname);
  return readingPage(getAppContext(context), request, params, post ? "post" : "article");
}

/**
 * Deleting the writing, confirmed first (the spec's irreversible confirmation), and the comments'
 * intents (`comment`, `reply`, `delete-comment`: see `commentAction`), as plain form posts.
 */
export async function action(args: Route.ActionArgs) {
  return dispatchIntent(await signedInFormPost(args), {
    ...commentIntents,
    delete: deleteThisWriting,
    unlock: unlockThis,
    refund_request: askRefund,
    approve_refund: approveRefund,
    reject_refund: rejectRefund,
    claim_red_packet: claimThis,
    fund_red_packet: fundThis,
  });
}

/** Pay-to-view: unlock or refund, then back to the page (PRG); a refusal (a balance too low, a refund too late) is the error screen. */
const backToWriting = {
  params: ({ params }: FormPost) => ({ id: params.writingId }),
  done: (_answer: unknown, { request }: FormPost): never => {
    throw redirect(pageUrl(request.url).pathname, 303);
  },
  ...failuresOnErrorScreen,
};
const unlockThis = formAction(unlockOperation, backToWriting);
const askRefund = formAction(requestRefundOperation, backToWriting);
const decided = { ...backToWriting, params: ({ form }: FormPost) => ({ id: String(form.get("refund_request") ?? "") }) };
const approveRefund = formAction(approveRefundOperation, decided);
const rejectRefund = formAction(rejectRefundOperation, decided);
const claimThis = formAction(claimRedPacketOperation, {
  ...backToWriting,
  params: ({ form }: FormPost) => ({ id: String(form.get("red_packet") ?? "") }),
});
const fundThis = formAction(fundRedPacketOperation, backToWriting);

/** Deleting the writing, asked first (the answer carries `confirmed=1`); a refusal is the error screen. */
async function deleteThisWriting(post: FormPost) {
  if (post.form.get("confirmed") !== "1") return { confirmDelete: true };
  return formAction(deleteWritingOperation, {
    params: ({ params }) => ({ id: params.writingId }),
    done: (_answer, { app }, { result }) => {
      throw redirect(localizePath(`/circles/${result.circleId}?deleted=1`, app.locale));
    },
    ...failuresOnErrorScreen,
  })(post);
}

export default function Writing({ loaderData, actionData }: Route.ComponentProps) {
  const answer = actionData as { confirmDelete?: boolean; confirmDeleteComment?: number } | CommentFormFailure | undefined;
  const failure = answer && "commentForm" in answer ? answer : undefined;
  const asked = answer && !("commentForm" in answer) ? answer : undefined;
  return <WritingView page={loaderData} confirmDelete={Boolean(asked?.confirmDelete)} commentFailure={failure} commentAnswer={asked} />;
}
