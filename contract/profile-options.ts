// The profile choices of SPEC.md §3 (interests, branches by graduation year). Kept apart from constants.ts
// because only the getting-started screen and the server need them: the lists stay out of the first load.

export const INTEREST_OPTIONS = [
  'Web Development',
  'Cybersecurity',
  'AI/ML',
  'Competitive Programming',
  'Data Science',
  'Data Analytics',
  'WEB3',
  'Networking',
] as const

const BRANCHES_2027 = [
  'Computer Engineering',
  'Computer And Communication',
  'Information Technology',
  'Artificial Intelligence And Data Science',
  'Mechanical',
  'Electronics And Telecommunications',
  'Electronics And Computers',
  'Robotics And Artificial Intelligence',
]

/** Branch names by graduation year, as shown to students (spaces, not underscores). */
export const BRANCHES_BY_YEAR: Record<number, readonly string[]> = {
  2025: ['Computer Engineering', 'Information Technology', 'Electronics', 'Mechanical', 'Electronics And Telecommunications'],
  2026: ['Computer Engineering', 'Information Technology', 'Mechanical', 'Electronics And Telecommunications', 'Electronics And Computers'],
  2027: BRANCHES_2027,
  2028: [...BRANCHES_2027, 'Computer Science And Business Systems', 'Electronics VLSI'],
}

export const GRADUATION_YEARS = [2025, 2026, 2027, 2028] as const

/** The wire form of a branch: spaces replaced by underscores (SPEC §3). */
export const branchToWire = (name: string) => name.replace(/ /g, '_')
export const branchFromWire = (wire: string) => wire.replace(/_/g, ' ')
