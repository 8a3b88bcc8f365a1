import { useTranslation } from 'react-i18next'
import type { Route } from './+types/creator-agreement'
import { LegalDocument } from '#app/components/legal-document'
import type { Locale } from '#app/i18n/locales'
import { legalPage } from '#app/modules/legal/documents.server'

export function loader({ params }: Route.LoaderArgs) {
	// The language prefix is checked by the :lang layout's middleware.
	return { document: legalPage('creator-agreement', params.lang as Locale) }
}

export default function CreatorAgreementPage({ loaderData }: Route.ComponentProps) {
	const { t } = useTranslation()
	return <LegalDocument title={t('pages.creator-agreement.title')} description={t('pages.creator-agreement.lead')} document={loaderData.document} />
}
