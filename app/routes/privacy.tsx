import { useTranslation } from '#app/i18n/translation'
import type { Route } from './+types/privacy'
import { LegalDocument } from '#app/components/legal-document'
import type { Locale } from '#app/i18n/locales'
import { legalPage } from '#app/modules/legal/documents.server'
import { offerToVisitors } from '#app/modules/shared-pages/shared-render.server'
import legalStylesHref from '#app/styles/legal.css?url'
import type { StylesheetsHandle } from '#app/styles/stylesheets'

export const handle: StylesheetsHandle = { stylesheets: [legalStylesHref] }

export function loader({ params, context }: Route.LoaderArgs) {
	// The language prefix is checked by the :lang layout's middleware.
	offerToVisitors(context)
	return { document: legalPage('privacy', params.lang as Locale) }
}

export default function PrivacyPage({ loaderData }: Route.ComponentProps) {
	const { t } = useTranslation()
	return <LegalDocument title={t('pages.privacy.title')} description={t('pages.privacy.lead')} document={loaderData.document} />
}
