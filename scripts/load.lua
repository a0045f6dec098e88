-- wrk's script for `make load` (scripts/load.py runs it): one connection per wrk thread, so each
-- thread's globals are one player's game.
--   LOAD_ROUTE=count  the yardstick: POST /count with one session cookie, every time.
--   LOAD_ROUTE=move   the game: POST /move at the Impossible level, a random empty square each
--                     time, from the board, the move form's hidden fields and the cookie of the
--                     last answer;
--                     a finished game starts again from the fresh game's cookie (LOAD_COOKIE).
local route = os.getenv("LOAD_ROUTE")
local fresh = { cookie = os.getenv("LOAD_COOKIE"), fields = os.getenv("LOAD_FIELDS"), board = os.getenv("LOAD_BOARD") }
cookie, fields, board = fresh.cookie, fresh.fields, fresh.board
unreadable = 0 -- answers without a board: counted as errors

local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  math.randomseed(os.time() + tonumber(tostring({}):match("0x(%x+)") or "0", 16) % 100000)
end

local function escape(text)
  return (text:gsub("[^%w%-_%.~]", function(c) return string.format("%%%02X", c:byte()) end))
end

function request()
  local headers = { ["Content-Type"] = "application/x-www-form-urlencoded", ["Cookie"] = cookie }
  if route == "count" then
    return wrk.format("POST", "/count", headers, "")
  end
  headers["HX-Request"] = "true"
  local empty = {}
  for i = 1, #board do
    if board:sub(i, i) == "." then table.insert(empty, i - 1) end
  end
  local body = fields .. "&cell=" .. empty[math.random(#empty)]
  return wrk.format("POST", "/move", headers, body)
end

local function restart()
  cookie, fields, board = fresh.cookie, fresh.fields, fresh.board
end

-- The hidden fields the board's form sends: those inside it and those joined to it by form="its id".
local function move_fields(body)
  local first, last = body:find('<form class="cells".-</form>')
  if not first then return nil end
  local id = body:sub(first, last):match('^<form[^>]-%sid="([^"]+)"')
  local sent = {}
  local at = 1
  while true do
    local start, stop, tag = body:find("(<input[^>]*>)", at)
    if not start then break end
    at = stop + 1
    local joined = tag:match('%sform="([^"]*)"')
    local inside = start > first and start < last and joined == nil
    if tag:match('type="hidden"') and (inside or (id and joined == id)) then
      local name, value = tag:match('name="([^"]+)"'), tag:match('value="([^"]*)"') or ""
      table.insert(sent, escape(name) .. "=" .. escape(value))
    end
  end
  return table.concat(sent, "&")
end

local function read_answer(status, headers, body)
  local tag = status == 200 and body:match('<div id="board"[^>]*>')
  local found = tag and move_fields(body)
  if not found then
    unreadable = unreadable + 1
    return restart()
  end
  if tag:match('data%-status="([^"]*)"') ~= "playing" then
    return restart()
  end
  board, fields = tag:match('data%-board="([^"]*)"'), found
  -- Header names are case-insensitive, and a proxy may send them in lower case (HAProxy does).
  for name, value in pairs(headers) do
    if name:lower() == "set-cookie" then cookie = value:match("^([^;]*)") end
  end
end

if route == "move" then
  response = read_answer
end

function done(summary, latency, requests)
  local unread = 0
  for _, thread in ipairs(threads) do unread = unread + (thread:get("unreadable") or 0) end
  local e = summary.errors
  io.write(string.format(
    '{"requests": %d, "seconds": %.6f, "p50_ms": %.3f, "p99_ms": %.3f, "max_ms": %.3f, ' ..
    '"errors": {"connect": %d, "read": %d, "write": %d, "status": %d, "timeout": %d, "unreadable": %d}}\n',
    summary.requests, summary.duration / 1e6, latency:percentile(50) / 1000, latency:percentile(99) / 1000,
    latency.max / 1000, e.connect, e.read, e.write, e.status, e.timeout, unread))
end
