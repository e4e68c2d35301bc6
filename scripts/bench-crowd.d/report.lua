-- wrk script of scripts/bench-crowd: POST /api/crowd/reports. Each request moves a random
-- existing simulated device (token sim-<seed>-<i>) to a random point of the city and asks the
-- default search (200 m, min 1, max 20). The requests are prepared in init() (CROWD_POOL per
-- thread, before wrk's clock starts), so the client spends its CPU sending, not formatting.
package.path = os.getenv("CROWD_LUA_DIR") .. "/?.lua;" .. package.path
local c = require("common")

setup = c.setup
done = c.done

local pool, at = {}, 0

function init(args)
    math.randomseed(os.time() * 1000 + (id or 0) * 7919 + math.floor(os.clock() * 1e6))
    non200, answers, locations, sample = 0, 0, 0, ""
    local headers = { ["Content-Type"] = "application/json" }
    for i = 1, c.pool do
        local lat, lon = c.point()
        local body = string.format('{"device":"sim-%s-%d","lat":%.7f,"lon":%.7f,"age":%d,"sex":"%s"}',
            c.seed, math.random(0, c.devices - 1), lat, lon, math.random(16, 70), math.random() < 0.5 and "m" or "f")
        pool[i] = wrk.format("POST", "/api/crowd/reports", headers, body)
    end
end

function request()
    at = at % #pool + 1
    return pool[at]
end

if c.counting then response = c.response end
