// Fee as shown on Event details (SPEC §2): 'Free' for 0, else rupees with Indian digit grouping.
const rupees = new Intl.NumberFormat('en-IN', { maximumFractionDigits: 2 })

export const formatFee = (fee: number) => (fee > 0 ? '₹' + rupees.format(fee) : 'Free')
