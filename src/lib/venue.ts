// Event details shows the venue in two lines: its first word, then the rest (SPEC §2).
export function splitVenue(venue: string): [string, string] {
  const v = venue.trim()
  const gap = v.search(/\s/)
  return gap < 0 ? [v, ''] : [v.slice(0, gap), v.slice(gap).trim()]
}
