-- wrk script: POST .../installations/{fid}/authTokens:generate as the JS SDK sends it, cycling
-- through pre-made installations. HEARTH_BENCH_TOKENS names a file of "fid refreshToken" lines.
local project = os.getenv("HEARTH_BENCH_PROJECT") or "demo-project"
local app = os.getenv("HEARTH_BENCH_APP") or "1:100000000000:web:0a1b2c3d4e5f6789"
local body = '{"installation":{"sdkVersion":"w:0.6.24","appId":"' .. app .. '"}}'
local requests = {}
local next_index = 1

for line in io.lines(os.getenv("HEARTH_BENCH_TOKENS")) do
  local fid, token = line:match("^(%S+) (%S+)$")
  if fid then
    requests[#requests + 1] = wrk.format("POST",
      "/v1/projects/" .. project .. "/installations/" .. fid .. "/authTokens:generate",
      { ["Content-Type"] = "application/json", ["Accept"] = "application/json",
        ["x-goog-api-key"] = "demo-api-key", ["Authorization"] = "FIS_v2 " .. token,
        ["x-firebase-client"] = "eyJ2ZXJzaW9uIjoyLCJoZWFydGJlYXRzIjpbXX0" },
      body)
  end
end

request = function()
  local r = requests[next_index]
  next_index = next_index % #requests + 1
  return r
end
