-- wrk script: POST .../installations as the JS SDK sends it, each with a fresh client FID
-- (17 random bytes, header nibble 0111, base64url, 22 characters).
local project = os.getenv("HEARTH_BENCH_PROJECT") or "demo-project"
local app = os.getenv("HEARTH_BENCH_APP") or "1:100000000000:web:0a1b2c3d4e5f6789"
local alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
local headers = { ["Content-Type"] = "application/json", ["Accept"] = "application/json",
  ["x-goog-api-key"] = "demo-api-key", ["x-firebase-client"] = "eyJ2ZXJzaW9uIjoyLCJoZWFydGJlYXRzIjpbXX0" }
local path = "/v1/projects/" .. project .. "/installations"

init = function(args)
  -- Distinct per run, so a second run does not re-send the first run's FIDs.
  math.randomseed(os.time() * 1000 + math.floor(os.clock() * 1000000))
end

local function fid()
  local first = math.random(1, 4)
  local out = { ("cdef"):sub(first, first) }
  for i = 2, 22 do
    local k = math.random(1, 64)
    out[i] = alphabet:sub(k, k)
  end
  return table.concat(out)
end

request = function()
  local body = '{"fid":"' .. fid() .. '","authVersion":"FIS_v2","appId":"' .. app .. '","sdkVersion":"w:0.6.24"}'
  return wrk.format("POST", path, headers, body)
end
