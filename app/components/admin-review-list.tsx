import type { ReactNode } from "react";
import { Form, Link } from "react-router";
import { FormAlert } from "./circle-settings-layout.tsx";

export interface ReviewListProps<Item extends { id: number }> {
  /** The page's name (`admin-feedback`): its heading's id and the test ids' stem. */
  name: string;
  title: string;
  filterLabel: string;
  /** Status tabs: `?status=<value>`. */
  filters: readonly { value: string; label: string }[];
  current: string;
  path: string;
  notice: string | null;
  error: string | undefined;
  emptyText: string;
  items: readonly Item[];
  /** The test id of one item (`admin-link-3`). */
  itemTestId(item: Item): string;
  /** What is being reviewed. */
  describe(item: Item): ReactNode;
  csrfToken: string;
  intent: string;
  /** The form field carrying the item's id (`feedback_id`). */
  idField: string;
  /** The review form's own fields and buttons. */
  controls(item: Item): ReactNode;
  /** The label of the reason every decision carries (kept in the audit log; required). */
  reasonLabel: string;
}

/**
 * A review queue of the admin area (feedback, friend links): status tabs, the notice or refusal
 * of the last decision, and each item with its own plain-post form, which carries the reason the
 * audit log keeps.
 */
export function AdminReviewList<Item extends { id: number }>(props: ReviewListProps<Item>) {
  return (
    <section className="panel" aria-labelledby={`${props.name}-title`}>
      <h1 id={`${props.name}-title`} className="page-title">
        {props.title}
      </h1>
      <nav aria-label={props.filterLabel} className="tabs-nav">
        {props.filters.map((filter) => (
          <Link
            key={filter.value}
            to={`${props.path}?status=${filter.value}`}
            aria-current={filter.value === props.current ? "page" : undefined}
          >
            {filter.label}
          </Link>
        ))}
      </nav>
      {props.notice ? (
        <p className="notice" role="status" data-testid={`${props.name}-notice`}>
          {props.notice}
        </p>
      ) : null}
      <FormAlert message={props.error} />
      {props.items.length === 0 ? (
        <p>{props.emptyText}</p>
      ) : (
        <ul className="site-list" data-testid={`${props.name}-list`}>
          {props.items.map((item) => (
            <li key={item.id} data-testid={props.itemTestId(item)}>
              {props.describe(item)}
              <Form method="post" className="inline-form">
                <input type="hidden" name="csrftoken" value={props.csrfToken} />
                <input type="hidden" name="intent" value={props.intent} />
                <input type="hidden" name={props.idField} value={item.id} />
                <label>
                  {props.reasonLabel} <input name="reason" required maxLength={1000} />
                </label>{" "}
                {props.controls(item)}
              </Form>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
