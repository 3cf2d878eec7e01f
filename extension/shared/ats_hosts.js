// Addresses of the applicant-tracking systems Relay knows (the `hosts` of rules/ats/*.toml; a
// test keeps the two lists equal). A frame from one of them may hold the application even when
// it comes from another site than the page (background/inject.js).

export const ATS_HOSTS = Object.freeze([
  "ashbyhq\\.com", "bamboohr\\.com", "greenhouse\\.io", "grnh\\.se", "icims\\.com", "jobvite\\.com",
  "lever\\.co", "taleo\\.net", "oraclecloud\\.com", "recruitee\\.com", "smartrecruiters\\.com",
  "teamtailor\\.com", "workable\\.com", "myworkdayjobs\\.com", "myworkdaysite\\.com", "workday\\.com",
]);
