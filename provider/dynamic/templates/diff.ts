import { sameValue } from "../inputs/equal";
import { PROVIDER_KEY, type Props } from "../inputs/props";
import { TEMPLATE_RULES } from "../../fields/template-fields";

/**
 * What changed between a template's state (`olds`) and its inputs (`news`): every field but the
 * connection settings replaces it (the service has no template update); those are `local`,
 * recorded in state with nothing sent.
 */
export function classifyTemplateChanges(olds: Props, news: Props): { replaces: string[]; local: string[] } {
  const changed = [...new Set([...Object.keys(olds), ...Object.keys(news)])]
    .filter((k) => k !== PROVIDER_KEY && !TEMPLATE_RULES.outputKeys.includes(k))
    .filter((k) => !sameValue(olds[k], news[k]))
    .sort();
  const replaces = changed.filter((k) => TEMPLATE_RULES.replaceOnChanges.includes(k));
  return { replaces, local: changed.filter((k) => !replaces.includes(k)) };
}
