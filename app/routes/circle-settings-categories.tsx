import { useEffect, useRef } from "react";
import { data, Form } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/circle-settings-categories";
import { dispatchIntent, formAction, type FormFailure as OperationFormFailure } from "../../server/lib/operation.ts";
import type { AppError } from "../../common/app-error.ts";
import { createCategoryOperation, deleteCategoryOperation, updateCategoryOperation } from "../../features/circles/category-operations.ts";
import { assertFormCsrf, formFailure, getAppContext, readForm } from "../lib/context.server.ts";
import { managedCircle, withFormToken } from "../lib/circle-pages.server.ts";
import { localizePath, type Locale } from "../../common/locale.ts";
import { translator } from "../../common/i18n.ts";
import { pageMeta } from "../lib/meta.ts";
import { CircleSettingsLayout, FormAlert } from "../components/circle-settings-layout.tsx";
import { categoryNameMaxLength, textField } from "../../features/circles/schema.ts";
import { listCategories, type CategoryView } from "../../features/circles/categories.ts";
import { localizedTexts } from "../../features/circles/presenter.ts";
import "../lib/circles-catalog.ts";
import "../../common/i18n-forms.ts";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "circles:categories.title");

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

/** Writing categories and their subclasses: add, rename, reorder, delete when unused. */
export async function loader({ context, params, request }: Route.LoaderArgs) {
  const app = getAppContext(context);
  const { row } = await managedCircle(app, request, params.circleId, "manage_categories");
  return withFormToken(app, {
    circle: { id: row.id, name: localizedTexts(row, app.locale).name },
    categories: await listCategories(app.db, row.id),
  });
}

const idOf = (form: FormData, name: string) => {
  const value = textField(form, name);
  return value && /^\d{1,10}$/.test(value) ? Number(value) : null;
};

export async function action({ context, params, request }: Route.ActionArgs) {
  const app = getAppContext(context);
  const { row } = await managedCircle(app, request, params.circleId, "manage_categories");
  const form = await readForm(request);
  const t = translator(app.locale);
  // Refusals are said above the list, a field's message too; the category a rename, move or delete
  // names comes from the form (a 400 without one).
  const refusals = {
    failed: (failure: OperationFormFailure) =>
      data({ formError: failure.formError ?? Object.values(failure.fieldErrors ?? {})[0] }, { status: failure.status }),
    errorScreen: (error: AppError) => error.status === 401,
  };
  const category = () => ({ id: row.id, category_id: idOf(form, "category_id") });
  const update = (intent: "rename" | "move") =>
    formAction(updateCategoryOperation, {
      params: category,
      body: (form) => {
        const position = textField(form, "position");
        return intent === "rename"
          ? { name: textField(form, "name") }
          : { position: position === undefined ? undefined : Number(position) };
      },
      done: () => ({ notice: t(intent === "rename" ? "circles:categories.renamed" : "circles:categories.moved") }),
      ...refusals,
    });
  const handlers = {
    create: formAction(createCategoryOperation, {
      params: () => ({ id: row.id }),
      body: (form) => ({ name: textField(form, "name"), parent_id: idOf(form, "parent_id") }),
      done: () => ({ notice: t("circles:categories.created") }),
      ...refusals,
    }),
    rename: update("rename"),
    move: update("move"),
    delete: formAction(deleteCategoryOperation, {
      params: category,
      done: () => ({ notice: t("circles:categories.deleted") }),
      ...refusals,
    }),
  };
  try {
    assertFormCsrf(app, form);
    return await dispatchIntent({ app, request, form, params }, handlers);
  } catch (error) {
    return formFailure(app, error);
  }
}

export default function CircleSettingsCategories({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("circles");
  const locale = i18n.language as Locale;
  const { circle, categories, csrfToken } = loaderData;
  const path = localizePath(`/circles/${circle.id}/settings/categories`, locale);
  const formError = actionData && "formError" in actionData ? actionData.formError : undefined;
  const hidden = <input type="hidden" name="csrftoken" value={csrfToken} />;
  const createForm = useRef<HTMLFormElement>(null);
  const subclassForm = useRef<HTMLFormElement>(null);
  // A change went through: the add forms start empty again (a failure keeps what was typed).
  useEffect(() => {
    if (actionData && "notice" in actionData) {
      createForm.current?.reset();
      subclassForm.current?.reset();
    }
  }, [actionData]);

  const row = (category: CategoryView, index: number, siblings: CategoryView[]) => (
    <li key={category.id} className="category-item" data-level={category.parentId === null ? "category" : "subclass"}>
      <div className="category-row">
        <Form method="post" action={path} className="inline-form">
          {hidden}
          <input type="hidden" name="category_id" value={category.id} />
          <input
            name="name"
            className="text-input"
            defaultValue={category.name}
            maxLength={categoryNameMaxLength}
            aria-label={t("categories.rename_label", { name: category.name })}
          />
          <button type="submit" name="intent" value="rename" className="button">
            {t("categories.rename")}
          </button>
        </Form>
        <Form method="post" action={path} className="inline-form">
          {hidden}
          <input type="hidden" name="category_id" value={category.id} />
          {index > 0 ? (
            <button
              type="submit"
              name="position"
              value={index - 1}
              className="button"
              aria-label={t("categories.move_up", { name: category.name })}
            >
              ↑
            </button>
          ) : null}
          {index < siblings.length - 1 ? (
            <button
              type="submit"
              name="position"
              value={index + 1}
              className="button"
              aria-label={t("categories.move_down", { name: category.name })}
            >
              ↓
            </button>
          ) : null}
          <input type="hidden" name="intent" value="move" />
        </Form>
        <Form method="post" action={path} className="inline-form">
          {hidden}
          <input type="hidden" name="category_id" value={category.id} />
          <button
            type="submit"
            name="intent"
            value="delete"
            className="button button-danger"
            aria-label={t("categories.delete_label", { name: category.name })}
          >
            {t("categories.delete")}
          </button>
        </Form>
      </div>
      {category.children.length > 0 ? (
        <ul className="category-list" aria-label={t("categories.subclasses", { name: category.name })}>
          {category.children.map((child, childIndex) => row(child, childIndex, category.children))}
        </ul>
      ) : null}
    </li>
  );

  return (
    <CircleSettingsLayout
      circle={circle}
      title={t("categories.title")}
      notice={actionData && "notice" in actionData ? actionData.notice : null}
    >
      <p className="muted">{t("categories.intro")}</p>
      <FormAlert message={formError} />
      {categories.length === 0 ? (
        <p className="muted">{t("categories.none")}</p>
      ) : (
        <ul className="category-list">{categories.map((category, index) => row(category, index, categories))}</ul>
      )}
      <Form ref={createForm} method="post" action={path} className="inline-form add-category" aria-labelledby="add-category-title">
        <h2 id="add-category-title">{t("categories.add")}</h2>
        {hidden}
        <label htmlFor="category-name">{t("categories.name")}</label>
        <input id="category-name" name="name" className="text-input" maxLength={categoryNameMaxLength} required />
        <button type="submit" name="intent" value="create" className="button button-primary">
          {t("categories.add")}
        </button>
      </Form>
      {categories.length > 0 ? (
        <Form ref={subclassForm} method="post" action={path} className="inline-form add-category" aria-labelledby="add-subclass-title">
          <h2 id="add-subclass-title">{t("categories.add_subclass")}</h2>
          {hidden}
          <label htmlFor="subclass-parent">{t("categories.parent")}</label>
          <select id="subclass-parent" name="parent_id" className="native-select">
            {categories.map((category) => (
              <option key={category.id} value={category.id}>
                {category.name}
              </option>
            ))}
          </select>
          <label htmlFor="subclass-name">{t("categories.name")}</label>
          <input id="subclass-name" name="name" className="text-input" maxLength={categoryNameMaxLength} required />
          <button type="submit" name="intent" value="create" className="button button-primary">
            {t("categories.add_subclass")}
          </button>
        </Form>
      ) : null}
    </CircleSettingsLayout>
  );
}
