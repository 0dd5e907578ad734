import path from "node:path";
import { parseArgs } from "node:util";
import "../features/registrations.ts";
import pg from "pg";
import { openServerDatabase } from "../server/db/client.ts";
import { seedCircleTree } from "../features/circles/seed.ts";
import { hashPassword } from "../features/accounts/passwords.server.ts";
import { rebuildIndex } from "../features/search/indexer.ts";
import { createTextGenerator, seededRandom } from "./scale-text.ts";
import { inTransaction } from "../server/lib/transactions.ts";
import { postLedgerTransaction } from "../features/ledger/service.ts";
import { tipSubject } from "../features/tips/service.ts";
import { AppError } from "../common/app-error.ts";

/**
 * `npm run seed:scale -- --factor 0.01|1|10`: realistic data for measuring pages at scale, written
 * into the PostgreSQL database named by DATABASE_URL (never the embedded demo store). Factor 1:
 * 10,000 users, ~200 circles in a tree, 100,000 writings (articles, serialized articles, posts,
 * 5% with a second language version), 2,000 books with 20,000 chapters, 20,000 entries with
 * aliases, 300,000 comments (a fifth of them replies), ~100,000 follows, ~30,000 memberships,
 * 20,000 questions with ~50,000 answers (a third of the answered ones accepted), ~200,000 likes
 * and dislikes on writings and answers, ~50,000 favourites, 2,000 tips paid through the wallet's
 * own path (grants to a hundred readers or more, at most a hundred tips each, within a day's allowance, then `tipSubject`: real ledger transactions, tip events
 * and income rollups), the events of all of it and the message centre's notifications they tell
 * (all but the last month's read); factor 10 ten times each. The rollup triggers count the
 * reactions, favourites, comments and follows into the daily figures as they go in
 * (`npm run admin -- rollup-check` and `ledger-check` pass on the result). Every writing and chapter has its own text
 * (scripts/scale-text.ts: real Chinese and English vocabularies drawn by frequency, formulas and
 * code in a realistic share, lengths from a post to a long article), inserted a thousand rows at a
 * time; the other tables are filled by INSERT … SELECT over generate_series. The data is skewed as
 * a community's is: the first circles and authors hold most of the writing, the first users have
 * thousands of followers at factor 10, and one writing draws 1,000 comments per unit of factor.
 * Every user's password is `scale12345`; `scale_u1` is the bench's reader. Migrates first, like
 * `npm start`; refuses a database that already holds scale data; prints the database's size.
 */
const root = path.resolve(import.meta.dirname, "..");
/** Rows per INSERT of generated writings and chapters. */
const insertBatch = 1000;
/** Chapters, questions and answers take generator indexes above every writing's, each its own stretch. */
const chapterTextOffset = 100_000_000;
const questionTextOffset = 200_000_000;
const answerTextOffset = 300_000_000;

export const scalePassword = "scale12345";
export const scaleReader = "scale_u1";

const entryWords = ["定理", "引理", "算法", "Theorem", "Lemma", "Algorithm", "Graph", "函数", "Protocol", "数列"];

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { factor: { type: "string", default: "0.01" } } });
  const factor = Number(values.factor);
  if (!Number.isFinite(factor) || factor <= 0 || factor > 10) {
    console.error("Usage: npm run seed:scale -- --factor <0 < factor <= 10> (0.01, 1 or 10)");
    return 2;
  }
  const url = process.env.DATABASE_URL;
  if (!url || !/^postgres(ql)?:\/\//.test(url)) {
    console.error(
      "DATABASE_URL must name a PostgreSQL database (e.g. postgres://postgres@127.0.0.1:5432/scale_1): scale data never goes into the embedded demo store.",
    );
    return 2;
  }
  const started = Date.now();
  const step = (what: string) => console.log(`${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s  ${what}`);

  const handle = await openServerDatabase(url, 1);
  await handle.migrate();
  await seedCircleTree(handle.db);
  await handle.close();
  step("migrated, circle tree seeded");

  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const query = (text: string, params: unknown[] = []) => client.query(text, params);
  try {
    const existing = await query("select 1 from users where username = $1", [scaleReader]);
    if (existing.rowCount) {
      console.error("This database already holds scale data: use a fresh one (createdb -h 127.0.0.1 -U postgres scale_1).");
      return 1;
    }
    const count = (n: number, min = 1) => Math.max(min, Math.round(n * factor));
    const userCount = count(10_000, 20);
    const writingCount = count(100_000, 20);
    const chapterCount = count(20_000, 10);
    const bookCount = Math.max(1, Math.ceil(chapterCount / 10));
    const entryCount = count(20_000, 10);
    const commentCount = count(300_000, 30);
    const questionCount = count(20_000, 10);
    const answerCount = count(50_000, 20);
    const reactionCount = count(200_000, 50);
    const favoriteCount = count(50_000, 20);
    const tipCount = count(2_000, 5);

    await query("select setseed(0.19)");
    await query("begin");

    // Users: one password hash for all (hashing 10,000 would take minutes).
    const passwordHash = await hashPassword(scalePassword);
    const users = await query(
      `insert into users (username, nickname, email, password_hash, gender, country, created_at)
       select 'scale_u' || g, '读者' || g, 'scale_u' || g || '@example.com', $1, 'secret', 'CN', now() - random() * interval '730 days'
       from generate_series(1, $2::integer) g
       returning id`,
      [passwordHash, userCount],
    );
    const firstUser = Math.min(...users.rows.map((row: { id: number }) => row.id));
    await query("insert into unread_counters (user_id) select id from users where id >= $1 on conflict do nothing", [firstUser]);
    step(`${userCount} users`);

    // Circles: ~200 in a tree under the seeded ones (a tenth visible to members only).
    const seeded = (await query("select id from circles order by id")).rows.map((row: { id: number }) => row.id);
    const extra = Math.max(2, Math.round(200 * factor) - seeded.length);
    const firstTier: number[] = [];
    for (let index = 1; index <= extra; index += 1) {
      const parent =
        index <= Math.ceil(extra * 0.3) || firstTier.length === 0
          ? seeded[1 + (index % (seeded.length - 1))]!
          : firstTier[index % firstTier.length]!;
      const visibility = index % 10 === 0 ? "members" : "public";
      const [row] = (
        await query(
          `insert into circles (parent_id, name_zh, name_en, description_zh, description_en, visibility, position, created_by)
           values ($1, $2, $3, $4, $5, $6, $7, $8) returning id`,
          [
            parent,
            `规模圈子 ${index}`,
            `Scale circle ${index}`,
            `第 ${index} 个测试圈子`,
            `Test circle number ${index}`,
            visibility,
            index,
            firstUser,
          ],
        )
      ).rows as { id: number }[];
      if (index <= Math.ceil(extra * 0.3)) firstTier.push(row!.id);
    }
    const circleIds = (await query("select id from circles where visibility = 'public' order by id")).rows.map(
      (row: { id: number }) => row.id,
    );
    step(`${extra} circles (${seeded.length + extra} in the tree)`);

    // Every writing its own body (scripts/scale-text.ts): real vocabularies drawn by frequency,
    // formulas and code in a realistic share, lengths from a post to a long article.
    const texts = await createTextGenerator(root);
    step(`vocabularies: ${texts.vocabularySizes.zh} Chinese and ${texts.vocabularySizes.en} English words`);
    const random = seededRandom(19);
    // Skewed like a community: the first circles and the first authors hold far more than the last.
    const pickCircle = () => circleIds[Math.floor(Math.pow(random(), 2) * circleIds.length)]!;
    const pickAuthor = () => firstUser + Math.floor(Math.pow(random(), 1.5) * userCount);
    const writingIds: number[] = [];
    for (let from = 1; from <= writingCount; from += insertBatch) {
      const rows = Array.from({ length: Math.min(insertBatch, writingCount - from + 1) }, (_, offset) => {
        const g = from + offset;
        const language = g % 5 === 0 ? "en" : "zh-CN";
        const body = texts.body(g, { language, titlePrefix: language === "en" ? `Scale writing ${g}: ` : `规模测试文章 ${g}：` });
        const t = random();
        const v = random();
        const p = random();
        return {
          circle: pickCircle(),
          author: pickAuthor(),
          type: t < 0.6 ? "article" : t < 0.75 ? "serial" : "post",
          kind: t < 0.3 ? "ordinary" : t < 0.5 ? "popular_science" : "note",
          body,
          views: Math.floor(v * v * 2000),
          publishedAt: new Date(Date.now() - p * p * 365 * 86_400_000).toISOString(),
        };
      });
      const inserted = await query(
        `insert into writings (circle_id, author_id, type, kind, language, title, markdown, html, toc, excerpt, text_length, reading_minutes, views, published_at, tip_enabled)
         select circle_id, author_id, type, kind, language, title, markdown, html, toc::jsonb, excerpt, text_length, reading_minutes, views, published_at, random() < 0.5
         from unnest($1::integer[], $2::integer[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[],
                     $11::integer[], $12::integer[], $13::integer[], $14::timestamptz[])
           as r(circle_id, author_id, type, kind, language, title, markdown, html, toc, excerpt, text_length, reading_minutes, views, published_at)
         returning id`,
        [
          rows.map((row) => row.circle),
          rows.map((row) => row.author),
          rows.map((row) => row.type),
          rows.map((row) => row.kind),
          rows.map((row) => row.body.language),
          rows.map((row) => row.body.title),
          rows.map((row) => row.body.markdown),
          rows.map((row) => row.body.html),
          rows.map((row) => JSON.stringify(row.body.toc)),
          rows.map((row) => row.body.excerpt),
          rows.map((row) => row.body.textLength),
          rows.map((row) => row.body.readingMinutes),
          rows.map((row) => row.views),
          rows.map((row) => row.publishedAt),
        ],
      );
      writingIds.push(...inserted.rows.map((row: { id: number }) => row.id));
      if (from % (insertBatch * 100) === 1 && from > 1) step(`${from - 1} writings`);
    }
    const firstWriting = Math.min(...writingIds);
    await query(
      `insert into writings (circle_id, author_id, type, kind, language, translation_of, title, markdown, html, toc, excerpt, text_length, reading_minutes, published_at)
       select circle_id, author_id, type, kind, case when language = 'en' then 'zh-CN' else 'en' end, id, title || ' (2)', markdown, html, toc, excerpt, text_length, reading_minutes, published_at + interval '1 hour'
       from writings where id >= $1 and id % 20 = 0`,
      [firstWriting],
    );
    step(`${writingCount} writings and their second language versions`);

    // Books of ten chapters each.
    const booked = await query(
      `insert into books (circle_id, author_id, name, description, state, views, created_at, updated_at)
       select c.ids[1 + floor(random() * array_length(c.ids, 1))::integer], $2::integer + floor(random() * $3::integer)::integer,
              '规模测试书 ' || g, '一本用于测量的书', case when g % 3 = 0 then 'completed' else 'updating' end,
              floor(random() * 500)::integer, now() - random() * interval '365 days', now() - random() * interval '30 days'
       from generate_series(1, $4::integer) g cross join (select $1::integer[] as ids) c
       returning id`,
      [circleIds, firstUser, userCount, bookCount],
    );
    const firstBook = Math.min(...booked.rows.map((row: { id: number }) => row.id));
    for (let from = 1; from <= chapterCount; from += insertBatch) {
      const numbers = Array.from({ length: Math.min(insertBatch, chapterCount - from + 1) }, (_, offset) => from + offset);
      // Chapters draw from their own stretch of the generator, so no chapter repeats a writing.
      const bodies = numbers.map((g) => texts.body(chapterTextOffset + g, { language: "zh-CN" }));
      await query(
        `insert into book_chapters (book_id, number, title, markdown, html, toc, text_length, reading_minutes)
         select $1::integer + (g - 1) / 10, (g - 1) % 10 + 1, '第 ' || ((g - 1) % 10 + 1) || ' 章 ' || title, markdown, html, toc::jsonb, text_length, reading_minutes
         from unnest($2::integer[], $3::text[], $4::text[], $5::text[], $6::text[], $7::integer[], $8::integer[])
           as r(g, title, markdown, html, toc, text_length, reading_minutes)`,
        [
          firstBook,
          numbers,
          bodies.map((body) => body.title),
          bodies.map((body) => body.markdown),
          bodies.map((body) => body.html),
          bodies.map((body) => JSON.stringify(body.toc)),
          bodies.map((body) => body.textLength),
          bodies.map((body) => body.readingMinutes),
        ],
      );
    }
    step(`${bookCount} books, ${chapterCount} chapters`);

    // Entries with up to three aliases, plus a few named ones every scale has (the search bench looks for them).
    await query(
      `insert into encyclopedia_entries (circle_id, name, aliases, disambiguation, description, description_html, language, creator_id, created_at)
       select c.ids[1 + floor(random() * array_length(c.ids, 1))::integer],
              w.words[1 + g % array_length(w.words, 1)] || ' ' || g,
              (array[]::text[] || case when g % 2 = 0 then array['alias ' || g] else array[]::text[] end
                               || case when g % 3 = 0 then array['别名 ' || g, 'aka-' || md5(g::text)] else array[]::text[] end),
              case when g % 7 = 0 then '消歧义 ' || g else null end,
              '一个用于测量的词条。', '<p>一个用于测量的词条。</p>',
              case when g % 4 = 0 then 'en' else 'zh-CN' end,
              $2::integer + floor(random() * $3::integer)::integer, now() - random() * interval '365 days'
       from generate_series(1, $4::integer) g cross join (select $1::integer[] as ids) c cross join (select $5::text[] as words) w`,
      [circleIds, firstUser, userCount, entryCount, entryWords],
    );
    await query(
      `insert into encyclopedia_entries (circle_id, name, aliases, description, description_html, language, creator_id)
       values ($1, 'Pythagorean theorem', array['Pythagoras theorem', '勾股定理'], '', '', 'en', $2),
              ($1, '毕达哥拉斯定理', array['Pythagorean identity', '商高定理'], '', '', 'zh-CN', $2),
              ($1, 'Binary search', array['half-interval search'], '', '', 'en', $2)`,
      [circleIds[0], firstUser],
    );
    step(`${entryCount} entries`);

    // Comments: four fifths top-level on writings (recent ones draw more, and one writing draws
    // 1,000 per unit of factor: 10,000 at factor 10), a fifth replies to them; texts from a pool of
    // generated comments.
    const topLevel = Math.round(commentCount * 0.8);
    const popular = Math.min(topLevel, Math.max(10, Math.round(1000 * factor)));
    const commentTexts = Array.from({ length: 5000 }, (_, index) => texts.comment(index));
    await query(
      `insert into comments (subject_type, subject_id, author_id, body, created_at)
       select 'writing', case when g <= $7::integer then $1::integer else $1::integer + floor(power(random(), 0.5) * $2::integer)::integer end,
              $3::integer + floor(random() * $4::integer)::integer,
              ($6::text[])[1 + floor(random() * array_length($6::text[], 1))::integer],
              now() - random() * interval '200 days'
       from generate_series(1, $5::integer) g`,
      [firstWriting, writingCount, firstUser, userCount, topLevel, commentTexts, popular],
    );
    await query(
      `insert into comments (subject_type, subject_id, author_id, parent_id, reply_to_user_id, body, created_at)
       select c.subject_type, c.subject_id, $1::integer + floor(random() * $2::integer)::integer, c.id, c.author_id, '同意楼上。', c.created_at + interval '1 hour'
       from comments c where c.parent_id is null order by random() limit $3`,
      [firstUser, userCount, commentCount - topLevel],
    );
    step(`${commentCount} comments`);

    // Questions with their own texts, and answers (about 2.5 a question, the first questions
    // drawing most), a third of the answered questions with an accepted answer.
    const questionIds: number[] = [];
    for (let from = 1; from <= questionCount; from += insertBatch) {
      const numbers = Array.from({ length: Math.min(insertBatch, questionCount - from + 1) }, (_, offset) => from + offset);
      const rows = numbers.map((g) => {
        const language = g % 4 === 0 ? "en" : "zh-CN";
        const body = texts.body(questionTextOffset + g, {
          language,
          titlePrefix: language === "en" ? `Scale question ${g}: ` : `规模问题 ${g}：`,
        });
        const p = random();
        return {
          g,
          body,
          circle: pickCircle(),
          author: pickAuthor(),
          askedAt: new Date(Date.now() - p * p * 365 * 86_400_000).toISOString(),
        };
      });
      const inserted = await query(
        `insert into questions (circle_id, author_id, language, title, markdown, html, excerpt, text_length, views, published_at)
         select circle_id, author_id, language, title, markdown, html, excerpt, text_length, floor(random() * random() * 3000)::integer, published_at
         from unnest($1::integer[], $2::integer[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::integer[], $9::timestamptz[])
           as r(circle_id, author_id, language, title, markdown, html, excerpt, text_length, published_at)
         returning id`,
        [
          rows.map((row) => row.circle),
          rows.map((row) => row.author),
          rows.map((row) => row.body.language),
          rows.map((row) => `${row.body.title}${row.body.language === "en" ? "?" : "？"}`),
          rows.map((row) => row.body.markdown),
          rows.map((row) => row.body.html),
          rows.map((row) => row.body.excerpt),
          rows.map((row) => row.body.textLength),
          rows.map((row) => row.askedAt),
        ],
      );
      questionIds.push(...inserted.rows.map((row: { id: number }) => row.id));
    }
    const firstQuestion = Math.min(...questionIds);
    const answerBodies = Array.from({ length: Math.min(2000, answerCount) }, (_, index) =>
      texts.body(answerTextOffset + index, { language: "zh-CN" }),
    );
    await query(
      `insert into answers (question_id, author_id, markdown, html, excerpt, text_length, published_at)
       select q.id, p.author_id, ($5::text[])[p.k], ($6::text[])[p.k], ($7::text[])[p.k], ($8::integer[])[p.k],
              least(now(), q.published_at + random() * interval '30 days')
       from (
         select $1::integer + floor(power(random(), 2) * $2::integer)::integer as question_id,
                $3::integer + floor(random() * $4::integer)::integer as author_id,
                1 + floor(random() * array_length($5::text[], 1))::integer as k
         from generate_series(1, $9::integer)
       ) p join questions q on q.id = p.question_id
       on conflict do nothing`,
      [
        firstQuestion,
        questionCount,
        firstUser,
        userCount,
        answerBodies.map((body) => body.markdown),
        answerBodies.map((body) => body.html),
        answerBodies.map((body) => body.excerpt),
        answerBodies.map((body) => body.textLength),
        answerCount,
      ],
    );
    await query(
      `update questions q set answer_count = counted.answers,
         accepted_answer_id = case when q.id % 3 = 0 then counted.first_answer end
       from (select question_id, count(*)::integer as answers, min(id) as first_answer from answers group by question_id) counted
       where counted.question_id = q.id and q.id >= $1`,
      [firstQuestion],
    );
    const answerRange = (await query("select min(id)::integer as first, count(*)::integer as total from answers")).rows[0] as {
      first: number;
      total: number;
    };
    step(`${questionCount} questions, ${answerRange.total} answers`);

    // Likes (a twentieth dislikes) on writings and answers, the popular ones drawing most; one per
    // user and subject (the primary key), as the net state the counts define. The rollup triggers
    // count them into the daily figures as they go in.
    const reactOn = async (type: "writing" | "answer", first: number, total: number, howMany: number) =>
      query(
        `insert into reactions (user_id, subject_type, subject_id, kind, created_at)
         select $1::integer + floor(random() * $2::integer)::integer, $3, $4::integer + floor(power(random(), 2) * $5::integer)::integer,
                case when random() < 0.05 then 'dislike' else 'like' end, now() - random() * interval '200 days'
         from generate_series(1, $6::integer)
         on conflict do nothing`,
        [firstUser, userCount, type, first, total, howMany],
      );
    await reactOn("writing", firstWriting, writingCount, Math.round(reactionCount * 0.7));
    if (answerRange.total > 0) await reactOn("answer", answerRange.first, answerRange.total, Math.round(reactionCount * 0.3));
    // Favourites of writings, each in its user's default folder.
    await query(`insert into favorite_folders (user_id, is_default) select id, true from users where id >= $1 on conflict do nothing`, [
      firstUser,
    ]);
    await query(
      `insert into favorites (user_id, subject_type, subject_id, folder_id, title, created_at)
       select p.user_id, 'writing', w.id, f.id, w.title, greatest(w.published_at, now() - random() * interval '200 days')
       from (
         select $1::integer + floor(random() * $2::integer)::integer as user_id,
                $3::integer + floor(power(random(), 2) * $4::integer)::integer as writing_id
         from generate_series(1, $5::integer)
       ) p
       join writings w on w.id = p.writing_id
       join favorite_folders f on f.user_id = p.user_id and f.is_default
       on conflict do nothing`,
      [firstUser, userCount, firstWriting, writingCount, favoriteCount],
    );
    // Their counts beside the comments', with each subject's author (features/reactions keeps them so).
    await query(
      `insert into subject_counts (subject_type, subject_id, author_id, like_count, dislike_count)
       select r.subject_type, r.subject_id, coalesce(w.author_id, a.author_id),
              count(*) filter (where r.kind = 'like')::integer, count(*) filter (where r.kind = 'dislike')::integer
       from reactions r
       left join writings w on r.subject_type = 'writing' and w.id = r.subject_id
       left join answers a on r.subject_type = 'answer' and a.id = r.subject_id
       where r.user_id >= $1
       group by r.subject_type, r.subject_id, w.author_id, a.author_id
       on conflict (subject_type, subject_id) do update set like_count = excluded.like_count, dislike_count = excluded.dislike_count`,
      [firstUser],
    );
    await query(
      `insert into subject_counts (subject_type, subject_id, author_id, favorite_count)
       select f.subject_type, f.subject_id, w.author_id, count(*)::integer
       from favorites f join writings w on w.id = f.subject_id
       where f.subject_type = 'writing' and f.user_id >= $1
       group by f.subject_type, f.subject_id, w.author_id
       on conflict (subject_type, subject_id) do update set favorite_count = excluded.favorite_count`,
      [firstUser],
    );
    step(`${reactionCount} reactions tried, ${favoriteCount} favourites tried (repeats dropped)`);

    // Follows (about ten each, skewed: the first users have thousands of followers at factor 10) and memberships (about three each).
    await query(
      `insert into follows (follower_id, followee_id, created_at)
       select follower, followee, at from (
         select u.id as follower, $1::integer + floor(power(random(), 3) * $2::integer)::integer as followee, now() - random() * interval '300 days' as at
         from users u cross join generate_series(1, 10) where u.id >= $1
       ) picked where follower <> followee
       on conflict do nothing`,
      [firstUser, userCount],
    );
    await query(
      `insert into circle_members (circle_id, user_id, role, joined_at)
       select c.ids[1 + floor(random() * array_length(c.ids, 1))::integer], u.id, 'member', now() - random() * interval '300 days'
       from users u cross join generate_series(1, 3) cross join (select $2::integer[] as ids) c where u.id >= $1
       on conflict do nothing`,
      [firstUser, circleIds],
    );
    step("follows and memberships");

    // The events those rows would have written.
    await query(
      `insert into events (actor_id, verb, subject_type, subject_id, data, created_at)
       select id, 'user.registered', 'user', id, '{}', created_at from users where id >= $1`,
      [firstUser],
    );
    await query(
      `insert into events (actor_id, verb, subject_type, subject_id, recipient_ids, data, created_at)
       select follower_id, 'user.followed', 'user', followee_id, array[followee_id], '{}', created_at from follows`,
    );
    await query(
      `insert into events (actor_id, verb, subject_type, subject_id, data, created_at)
       select user_id, 'circle.joined', 'circle', circle_id, '{}', joined_at from circle_members where user_id >= $1`,
      [firstUser],
    );
    await query(
      `insert into events (actor_id, verb, subject_type, subject_id, data, created_at)
       select author_id, 'writing.published', 'writing', id,
              jsonb_build_object('circleId', circle_id, 'type', type, 'language', language, 'translationOf', translation_of, 'seriesId', series_id),
              published_at
       from writings where id >= $1`,
      [firstWriting],
    );
    await query(
      `insert into events (actor_id, verb, subject_type, subject_id, recipient_ids, data, created_at)
       select author_id, 'comment.created', 'comment', id, case when reply_to_user_id is null then array[]::integer[] else array[reply_to_user_id] end,
              jsonb_build_object('subjectType', subject_type, 'subjectId', subject_id, 'parentId', parent_id, 'replyToUserId', reply_to_user_id),
              created_at
       from comments`,
    );
    await query(
      `insert into events (actor_id, verb, subject_type, subject_id, data, created_at)
       select author_id, 'question.asked', 'question', id, jsonb_build_object('circleId', circle_id, 'language', language), published_at
       from questions where id >= $1`,
      [firstQuestion],
    );
    await query(
      `insert into events (actor_id, verb, subject_type, subject_id, recipient_ids, data, created_at)
       select a.author_id, 'answer.created', 'answer', a.id, array[q.author_id],
              jsonb_build_object('questionId', q.id, 'circleId', q.circle_id), a.published_at
       from answers a join questions q on q.id = a.question_id where q.id >= $1`,
      [firstQuestion],
    );
    await query(
      `insert into events (actor_id, verb, subject_type, subject_id, recipient_ids, data, created_at)
       select r.user_id, 'reaction.added', r.subject_type, r.subject_id, array[c.author_id], jsonb_build_object('reaction', r.kind), r.created_at
       from reactions r join subject_counts c on c.subject_type = r.subject_type and c.subject_id = r.subject_id
       where r.user_id >= $1`,
      [firstUser],
    );
    await query(
      `insert into events (actor_id, verb, subject_type, subject_id, recipient_ids, data, created_at)
       select f.user_id, 'favorite.added', f.subject_type, f.subject_id, array[c.author_id], jsonb_build_object('folderId', f.folder_id), f.created_at
       from favorites f join subject_counts c on c.subject_type = f.subject_type and c.subject_id = f.subject_id
       where f.user_id >= $1`,
      [firstUser],
    );
    step("events");

    // The message centre's notifications those events tell (features/messages/handlers.ts): follows,
    // comments on one's writings, replies, answers to one's questions, likes and favourites; all but
    // the last month's read.
    await query(
      `insert into notifications (recipient_id, category, verb, event_id, actor_id, subject_type, subject_id, data, created_at, read_at)
       select n.recipient, n.category, e.verb, e.id, e.actor_id, n.about_type, n.about_id, e.data, e.created_at,
              case when e.created_at < now() - interval '30 days' then e.created_at + interval '1 day' end
       from events e
       cross join lateral (
         select e.subject_id as recipient, 'follow' as category, 'user' as about_type, e.subject_id as about_id where e.verb = 'user.followed'
         union all
         select w.author_id, 'comment', 'comment', e.subject_id from writings w
           where e.verb = 'comment.created' and (e.data->>'parentId') is null and w.id = (e.data->>'subjectId')::integer
         union all
         select (e.data->>'replyToUserId')::integer, 'reply', 'comment', e.subject_id
           where e.verb = 'comment.created' and (e.data->>'parentId') is not null
         union all
         select e.recipient_ids[1], 'answers', 'answer', e.subject_id where e.verb = 'answer.created'
         union all
         select e.recipient_ids[1], 'like', e.subject_type, e.subject_id where e.verb = 'reaction.added' and e.data->>'reaction' = 'like'
         union all
         select e.recipient_ids[1], 'favorite', e.subject_type, e.subject_id where e.verb = 'favorite.added'
       ) n
       where e.verb in ('user.followed', 'comment.created', 'answer.created', 'reaction.added', 'favorite.added')
         and n.recipient is not null and n.recipient is distinct from e.actor_id
       on conflict do nothing`,
    );
    step("notifications");

    // Comment counts and Hot scores, as the hourly recompute leaves them.
    await query("update hot_clock set reference_at = now() where id = 1");
    await query(
      `update writings w set comment_count = counted.comments
       from (select subject_id, count(*)::integer as comments from comments where subject_type = 'writing' and deleted_at is null group by subject_id) counted
       where counted.subject_id = w.id`,
    );
    // Every subject's comment count beside its likes, with its author (features/comments/handlers.ts keeps it).
    await query(
      `insert into subject_counts (subject_type, subject_id, author_id, comment_count)
       select c.subject_type, c.subject_id, w.author_id, count(*)::integer
       from comments c join writings w on w.id = c.subject_id
       where c.subject_type = 'writing' and c.deleted_at is null
       group by c.subject_type, c.subject_id, w.author_id
       on conflict (subject_type, subject_id) do update set comment_count = excluded.comment_count`,
    );
    await query("commit");
    step("comment counts and Hot scores");

    // Tips through the wallet's own path, so the ledger, the tips, their events, the authors'
    // notifications and income rollups are the real ones: a hundred readers get sinecoin by a grant
    // (the only kind of ledger money the seed makes), then tip writings, the popular ones most.
    const economy = await openServerDatabase(url, 2);
    try {
      const tippers = (
        await query("select id, username, nickname from users where id >= $1 order by id limit $2", [
          firstUser,
          Math.max(100, Math.ceil(tipCount / 100)),
        ])
      ).rows as {
        id: number;
        username: string;
        nickname: string;
      }[];
      for (const tipper of tippers)
        await inTransaction({ db: economy.db }, (tx) =>
          postLedgerTransaction(tx, {
            idempotencyKey: `scale-grant:${tipper.id}`,
            kind: "grant",
            data: { reason: "scale seed" },
            entries: [
              { account: { userId: tipper.id, currency: "sinecoin" }, amount: 100_000 },
              { account: { system: "scale_issuer", currency: "sinecoin" }, amount: -100_000 },
            ],
          }),
        );
      let tipped = 0;
      for (let index = 0; index < tipCount; index += 1) {
        const tipper = tippers[index % tippers.length]!;
        const writingId = firstWriting + Math.floor(Math.pow(random(), 3) * writingCount);
        const viewer = { ...tipper, userType: "Registered users" as const, avatar: null };
        try {
          await tipSubject(
            { db: economy.db },
            viewer,
            "writing",
            writingId,
            { amount: 1 + Math.floor(random() * 50) },
            `scale-tip:${index}`,
          );
          tipped += 1;
        } catch (error) {
          // Their own writing, a members-only circle or tips switched off: that tip is not given.
          if (!(error instanceof AppError)) throw error;
        }
      }
      step(`${tipped} tips`);
    } finally {
      await economy.close();
    }
    // Vacuum too: it empties the GIN indexes' pending lists, which searches would otherwise scan.
    await query("vacuum analyze");
    step("vacuumed and analyzed");
    // The rows above were written without events: the search index is built from them once.
    const indexing = await openServerDatabase(url, 1);
    const indexed = await rebuildIndex(indexing.db, () => {}, 500);
    await indexing.close();
    await query("vacuum analyze search_documents");
    step(`search index: ${indexed} subjects`);
    const totals = await query(
      `select (select count(*) from users) users, (select count(*) from circles) circles, (select count(*) from writings) writings,
              (select count(*) from book_chapters) chapters, (select count(*) from encyclopedia_entries) entries,
              (select count(*) from comments) comments, (select count(*) from follows) follows,
              (select count(*) from circle_members) memberships, (select count(*) from questions) questions,
              (select count(*) from answers) answers, (select count(*) from reactions) reactions, (select count(*) from favorites) favorites,
              (select count(*) from tips) tips, (select count(*) from ledger_transactions) ledger_transactions,
              (select count(*) from notifications) notifications, (select count(*) from events) events`,
    );
    console.log(totals.rows[0]);
    const size = await query("select pg_size_pretty(pg_database_size(current_database())) as size");
    console.log(`Database size: ${(size.rows[0] as { size: string }).size}; ${((Date.now() - started) / 1000).toFixed(0)} s in all.`);
    console.log(`Sign in as ${scaleReader} / ${scalePassword}.`);
    return 0;
  } catch (error) {
    await query("rollback").catch(() => {});
    throw error;
  } finally {
    await client.end();
  }
}

process.exitCode = await main();
