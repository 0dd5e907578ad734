/** An answer in a `QAPage`'s JSON-LD (the question page lists several, an answer's page its own). */
export function answerJsonLd(
  answer: {
    excerpt: string;
    likeCount: number;
    publishedAt: string;
    url: string;
    author: { nickname: string; username: string };
  },
  url: (path: string) => string,
) {
  return {
    "@type": "Answer",
    text: answer.excerpt,
    upvoteCount: answer.likeCount,
    dateCreated: answer.publishedAt,
    url: url(answer.url),
    author: { "@type": "Person", name: answer.author.nickname, url: url(`/profile/${answer.author.username}`) },
  };
}
