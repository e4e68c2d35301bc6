-- wrk script of scripts/bench-crowd: POST /api/crowd/reports. Each request moves a random
-- existing simulated device (token sim-<seed>-<i>) to a random point of the city and asks the
-- default search (200 m, min 1, max 20). Every answer must be 200; its locations are counted.
package.path = os.getenv("CROWD_LUA_DIR") .. "/?.lua;" .. package.path
local c = require("common")

setup = c.setup
done = c.done

function init(args)
    math.randomseed(os.time() * 1000 + (id or 0) * 7919 + math.floor(os.clock() * 1e6))
    non200, answers, locations, sample = 0, 0, 0, ""
end

function request()
    local lat, lon = c.point()
    local body = string.format('{"device":"sim-%s-%d","lat":%.7f,"lon":%.7f,"age":%d,"sex":"%s"}',
        c.seed, math.random(0, c.devices - 1), lat, lon, math.random(16, 70), math.random() < 0.5 and "m" or "f")
    return wrk.format("POST", "/api/crowd/reports", { ["Content-Type"] = "application/json" }, body)
end

function response(status, headers, body)
    if status ~= 200 then
        non200 = non200 + 1
        if sample == "" then sample = status .. " " .. string.gsub(string.sub(body or "", 1, 200), "%%s+", " ") end
        return
    end
    answers = answers + 1
    local _, n = string.gsub(body, '"distance_m"', "")
    locations = locations + n
end
