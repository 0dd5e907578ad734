import { useState } from "react";
import { Form, Link, redirect } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/ads-start";
import { getAppContext, signedInFormPost } from "../lib/context.server.ts";
import { startPageData } from "../lib/ads-pages.server.ts";
import { localizePath, type Locale } from "../../common/locale.ts";
import { translator } from "../../common/i18n.ts";
import { pageMeta } from "../lib/meta.ts";
import { dispatchIntent, formAction, type FormFailure } from "../../server/lib/operation.ts";
import { createCampaignOperation } from "../../features/ads/operations.ts";
import { adSettings } from "../../features/ads/settings.ts";
import { uploadImage } from "../lib/upload-image.ts";
import { AdCard } from "../components/ad-card.tsx";
import "../lib/ads-catalog.ts";
import "../../common/i18n-forms.ts";
import walletStyles from "../styles/wallet.css?url";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "ads:start_title");
export const links = () => [{ rel: "stylesheet", href: walletStyles }];
export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

/** `/ads/start`: a new campaign (creative, targeting, pricing, budget, dates) with a live preview of each slot in both languages. */
export async function loader({ context }: Route.LoaderArgs) {
  return startPageData(getAppContext(context));
}

const text = (form: FormData, name: string) => String(form.get(name) ?? "");
const whole = (form: FormData, name: string) => (form.get(name) ? Number(form.get(name)) : undefined);

export async function action(args: Route.ActionArgs) {
  const post = await signedInFormPost(args);
  return dispatchIntent(post, {
    create: formAction(createCampaignOperation, {
      body: (form) => ({
        title: text(form, "title"),
        text: text(form, "text"),
        image_file_id: text(form, "image_file_id"),
        url: text(form, "url"),
        circle_ids: form.getAll("circle_ids").map(Number),
        languages: form.getAll("languages").map(String),
        pricing: { model: text(form, "model"), price: whole(form, "price") },
        budget: whole(form, "budget"),
        daily_cap: whole(form, "daily_cap"),
        starts_on: text(form, "starts_on"),
        ends_on: text(form, "ends_on"),
      }),
      done: () => redirect(`${localizePath("/ads/me", post.app.locale)}?created=1`, 303),
      failed: (failure: FormFailure) => ({
        error: failure.formError ?? Object.values(failure.fieldErrors ?? {})[0] ?? translator(post.app.locale)("errors:ads_failed"),
      }),
    }),
  });
}

export default function AdsStart({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("ads");
  const locale = i18n.language as Locale;
  const { circles, wallet, csrfToken, idempotencyKey, today } = loaderData;
  const answer = actionData as { error?: string } | undefined;
  const [title, setTitle] = useState("");
  const [body, setBody] = useState("");
  const [image, setImage] = useState<{ file_id: string; url: string } | null>(null);
  const [upload, setUpload] = useState<string | null>(null);
  const preview = {
    title: title || t("preview_title_placeholder"),
    text: body || t("preview_text_placeholder"),
    image_url: image?.url ?? "",
    href: "#",
  };
  const chooseImage = async (file: File | undefined) => {
    if (!file) return;
    setUpload(t("uploading"));
    try {
      setImage(await uploadImage(file, csrfToken));
      setUpload(null);
    } catch (error) {
      setUpload(t("upload_failed", { message: error instanceof Error ? error.message : "" }));
    }
  };
  return (
    <section className="panel" aria-labelledby="ads-start-title">
      <h1 id="ads-start-title" className="page-title">
        {t("start_title")}
      </h1>
      <p className="muted">
        <Link to={localizePath("/ads", locale)}>{t("title")}</Link> · <Link to={localizePath("/ads/me", locale)}>{t("links_me")}</Link>
      </p>
      {wallet ? <p className="muted">{t("balance", { balance: wallet.sinecoin })}</p> : null}
      <div style={{ display: "flex", flexWrap: "wrap", gap: "2rem", alignItems: "flex-start" }}>
        <Form method="post" className="wallet-form" id="ads-start-form" style={{ flex: "1 1 22rem" }}>
          <input type="hidden" name="csrftoken" value={csrfToken} />
          <input type="hidden" name="idempotency_key" value={idempotencyKey} />
          <input type="hidden" name="intent" value="create" />
          <input type="hidden" name="image_file_id" value={image?.file_id ?? ""} />
          <fieldset>
            <legend>{t("creative")}</legend>
            <label>
              {t("field_title")}
              <input name="title" required maxLength={30} value={title} onChange={(event) => setTitle(event.target.value)} />
            </label>
            <label>
              {t("field_text")}
              <textarea name="text" required maxLength={80} rows={2} value={body} onChange={(event) => setBody(event.target.value)} />
            </label>
            <label>
              {t("field_image")}
              <input
                type="file"
                name="image"
                accept="image/png,image/jpeg,image/gif,image/webp"
                onChange={(event) => void chooseImage(event.target.files?.[0])}
              />
            </label>
            {upload ? <p role="status">{upload}</p> : null}
            <label>
              {t("field_url")}
              <input name="url" type="url" required pattern="https?://.+" placeholder="https://" />
            </label>
          </fieldset>
          <fieldset>
            <legend>{t("targeting")}</legend>
            <label>
              {t("field_circles")}
              <select name="circle_ids" multiple size={Math.min(6, Math.max(2, circles.length))}>
                {circles.map((circle) => (
                  <option key={circle.id} value={circle.id}>
                    {circle.name}
                  </option>
                ))}
              </select>
            </label>
            <p>{t("field_languages")}</p>
            <label>
              <input type="checkbox" name="languages" value="zh-CN" defaultChecked /> {t("language_zh")}
            </label>
            <label>
              <input type="checkbox" name="languages" value="en" defaultChecked /> {t("language_en")}
            </label>
          </fieldset>
          <fieldset>
            <legend>{t("pricing")}</legend>
            <label>
              <input type="radio" name="model" value="cpm" defaultChecked /> {t("model_cpm")}
            </label>
            <label>
              <input type="radio" name="model" value="cpc" /> {t("model_cpc")}
            </label>
            <label>
              {t("field_price", adSettings.floor)}
              <input type="number" name="price" required min={1} defaultValue={adSettings.floor.cpm} />
            </label>
            <label>
              {t("field_budget")}
              <input type="number" name="budget" required min={1} defaultValue={100} />
            </label>
            <label>
              {t("field_daily_cap")}
              <input type="number" name="daily_cap" required min={1} defaultValue={20} />
            </label>
            <label>
              {t("field_starts_on")}
              <input type="date" name="starts_on" required min={today} defaultValue={today} />
            </label>
            <label>
              {t("field_ends_on")}
              <input type="date" name="ends_on" required min={today} defaultValue={today} />
            </label>
          </fieldset>
          {answer?.error ? (
            <p className="form-error" role="alert">
              {answer.error}
            </p>
          ) : null}
          <button type="submit" className="button button-primary">
            {t("submit")}
          </button>
        </Form>
        <div style={{ flex: "1 1 18rem" }} aria-label={t("preview")} data-testid="ad-preview">
          <h2>{t("preview")}</h2>
          {(["zh-CN", "en"] as const).map((language) => (
            <div key={language} className="ad-previews" lang={language}>
              <figure>
                <figcaption className="muted">{t("slot_article")}</figcaption>
                <AdCard ad={preview} label={language === "en" ? "Ad" : "广告"} />
              </figure>
              <figure>
                <figcaption className="muted">{t("slot_feed")}</figcaption>
                <AdCard ad={preview} label={language === "en" ? "Ad" : "广告"} />
              </figure>
            </div>
          ))}
        </div>
      </div>
    </section>
  );
}
