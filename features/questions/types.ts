/** Shapes of questions and answers as pages show them (shared with components: no server code here). */

export interface PersonCard {
  id: number;
  username: string;
  nickname: string;
  avatar: string | null;
  /** The shop badge and avatar frame worn (item codes), when the page looked them up. */
  badge?: string | null;
  frame?: string | null;
}

/** An answer as lists and pages show it. */
export interface AnswerItem {
  id: number;
  questionId: number;
  html: string;
  excerpt: string;
  textLength: number;
  version: number;
  likeCount: number;
  /** Comments and replies on it (not deleted). */
  commentCount: number;
  accepted: boolean;
  publishedAt: string;
  editedAt: string | null;
  author: PersonCard;
  url: string;
}

/** A question in a list: counts, the best answer's opening lines (the accepted one, else the most liked), categories, time. */
export interface QuestionListItem {
  id: number;
  circleId: number;
  title: string;
  excerpt: string;
  language: "zh-CN" | "en";
  answerCount: number;
  views: number;
  publishedAt: string;
  author: PersonCard;
  categories: { id: number; name: string }[];
  bestAnswer: { id: number; excerpt: string; accepted: boolean; author: PersonCard } | null;
  url: string;
}

/** A similar question as the ask page and the question page's side panel list it. */
export interface SimilarQuestion {
  id: number;
  circleId: number;
  title: string;
  answerCount: number;
  url: string;
}
