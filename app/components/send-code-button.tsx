import { Button } from "antd";
import { useTranslation } from "../lib/i18n.tsx";
import { useCountdown } from "../lib/use-countdown.ts";

interface SendCodeButtonProps {
  id: string;
  /** The form's `intent` for sending. */
  intent: string;
  label: string;
  /** Seconds until another code may be asked for, from the last answer; undefined before any. */
  resendAfter: number | undefined;
  /** The answer the seconds came with (a new answer restarts the countdown). */
  answer: unknown;
  block?: boolean;
}

/**
 * "Send code", then a visible countdown ("Send again in 42 s") while the server would refuse
 * another; without JavaScript the button stays usable and a line says how long to wait.
 */
export function SendCodeButton({ id, intent, label, resendAfter, answer, block }: SendCodeButtonProps) {
  const { t } = useTranslation("codes");
  const { remaining, running } = useCountdown(resendAfter, answer);
  const waiting = running && remaining > 0;
  return (
    <div className="send-code">
      <Button
        id={id}
        htmlType="submit"
        name="intent"
        value={intent}
        disabled={waiting}
        block={block}
        data-remaining={waiting ? remaining : 0}
      >
        {waiting ? t("code.resend_in", { seconds: remaining }) : resendAfter !== undefined ? t("code.resend") : label}
      </Button>
      {!running && resendAfter ? <div className="form-hint">{t("code.wait_hint", { seconds: resendAfter })}</div> : null}
    </div>
  );
}

/** Enter in a field submits the form's first submit button: this one, invisible, names the main intent. */
export function DefaultIntent({ intent }: { intent: string }) {
  return <button type="submit" name="intent" value={intent} className="visually-hidden" tabIndex={-1} aria-hidden="true" />;
}
