import { useEffect, useState } from "react";
import { Link, useNavigate, useRevalidator } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import { useSessionStore } from "../lib/session-store.ts";
import { localizePath, type Locale } from "../../common/locale.ts";

interface AnswerArrival {
  id: number;
  url: string;
}

/** The answer a live notification announces, when it answers this question (its page is under the question's). */
function arrivalFor(message: { sse_type: string; [key: string]: unknown }, questionPath: string): AnswerArrival | null {
  if (message.sse_type !== "notification") return null;
  const line = message.notification as { category?: string; subject?: { type?: string; id?: number; url?: string | null } } | undefined;
  if (line?.category !== "answers" || line.subject?.type !== "answer" || typeof line.subject.id !== "number") return null;
  const url = line.subject.url;
  if (!url?.startsWith(`${questionPath}/`) || url.slice(questionPath.length + 1).includes("/")) return null;
  return { id: line.subject.id, url };
}

/**
 * "1 new answer" above the answers, for whoever the live stream tells of answers to this question
 * (its asker and followers), as they arrive. Following it reloads the page's data and scrolls to
 * the first new answer; without JavaScript there is no stream, so nothing shows.
 */
export function NewAnswersNotice({ questionPath }: { questionPath: string }) {
  const { t, i18n } = useTranslation("questions");
  const store = useSessionStore();
  const revalidator = useRevalidator();
  const navigate = useNavigate();
  const [arrivals, setArrivals] = useState<AnswerArrival[]>([]);
  useEffect(() => {
    setArrivals([]);
    return store.onLive((message) => {
      const arrival = arrivalFor(message, questionPath);
      if (arrival) setArrivals((held) => (held.some((item) => item.id === arrival.id) ? held : [...held, arrival]));
    });
  }, [store, questionPath]);
  if (arrivals.length === 0) return null;
  const first = arrivals[0]!;
  const href = localizePath(first.url, i18n.language as Locale);
  return (
    <p className="new-answers-notice" role="status">
      <Link
        to={href}
        data-testid="new-answers-notice"
        onClick={(event) => {
          if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
          event.preventDefault();
          void revalidator.revalidate().then(() => {
            setArrivals([]);
            const card = document.getElementById(`answer-${first.id}`);
            if (card) card.scrollIntoView({ block: "start" });
            else void navigate(href);
          });
        }}
      >
        {t("question.new_answers", { count: arrivals.length })}
      </Link>
    </p>
  );
}
