import { useTranslation } from 'react-i18next'
import { StaticPage } from '#app/components/static-page'

export default function TermsPage() {
	const { t } = useTranslation()
	return <StaticPage title={t('pages.terms.title')} lead={t('pages.terms.lead')} />
}
