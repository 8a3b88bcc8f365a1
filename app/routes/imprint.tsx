import { useTranslation } from '#app/i18n/translation'
import type { Route } from './+types/imprint'
import { LegalDocument } from '#app/components/legal-document'
import { servicesContext } from '#app/context.server'
import type { Locale } from '#app/i18n/locales'
import { legalPage } from '#app/modules/legal/documents.server'
import { offerToVisitors } from '#app/modules/shared-pages/shared-render.server'
import legalStylesHref from '#app/styles/legal.css?url'
import type { StylesheetsHandle } from '#app/styles/stylesheets'

export const handle: StylesheetsHandle = { stylesheets: [legalStylesHref] }

/**
 * The operator's details come from configuration (OPERATOR_NAME,
 * OPERATOR_ADDRESS, OPERATOR_EMAIL; required in production on a public
 * APP_URL), the rest of the imprint from its Markdown document.
 */
export function loader({ params, context }: Route.LoaderArgs) {
	const { env } = context.get(servicesContext)
	offerToVisitors(context)
	return {
		document: legalPage('imprint', params.lang as Locale),
		operator: env.OPERATOR_NAME
			? {
					name: env.OPERATOR_NAME,
					// A line break in the variable may be a real one or a written `\n`.
					address: env.OPERATOR_ADDRESS?.split(/\r?\n|\\n/).map((line) => line.trim()).filter(Boolean) ?? [],
					email: env.OPERATOR_EMAIL ?? null,
				}
			: null,
	}
}

export default function ImprintPage({ loaderData }: Route.ComponentProps) {
	const { t } = useTranslation()
	const { document, operator } = loaderData
	return (
		<LegalDocument title={t('pages.imprint.title')} description={t('pages.imprint.lead')} document={document}>
			{operator ? (
				<dl className="facts legal__operator">
					<dt>{t('pages.imprint.operator')}</dt>
					<dd>
						{operator.name}
						{operator.address.length ? (
							<address className="legal__address">{operator.address.join('\n')}</address>
						) : null}
					</dd>
					{operator.email ? (
						<>
							<dt>{t('pages.imprint.contact')}</dt>
							<dd>
								<a href={`mailto:${operator.email}`}>{operator.email}</a>
							</dd>
						</>
					) : null}
				</dl>
			) : (
				<p className="notice" role="note">
					{t('pages.imprint.not-configured')}
				</p>
			)}
		</LegalDocument>
	)
}
