using System.Diagnostics;
using System.Net;
using System.Net.Http.Json;
using System.Text;
using System.Text.Json;
using Microsoft.Extensions.DependencyInjection;
using RpcCompare.Bindings.Wcf.Http;
using RpcCompare.Contracts;
using RpcCompare.Contracts.Push;
using RpcCompare.Testing;

namespace RpcCompare.Bindings.Wcf.Tests.Push;

/// <summary>
/// The long-polling endpoints of wcf-http with requests no push client would send: unknown and
/// silent sessions, unreadable and oversized bodies, two polls at once. Each refusal is an error
/// reply with a code, and the server keeps serving.
/// </summary>
public sealed class LongPollTests : IAsyncLifetime
{
    private const int Limit = 64 * 1024;
    private static readonly JsonSerializerOptions s_json = new(JsonSerializerDefaults.Web) { Converters = { new System.Text.Json.Serialization.JsonStringEnumConverter() } };
    private InProcessHost _host = null!;
    private HttpClient _http = null!;

    public async Task InitializeAsync()
    {
        _host = await InProcessHost.StartAsync(maxMessageSize: Limit, configureServices: services =>
            services.Configure<WcfHttpBindingOptions>(o => o.LongPollSessionTimeout = TimeSpan.FromSeconds(1)));
        _http = new HttpClient { BaseAddress = new Uri(_host.Address(BindingNames.WcfHttp).TrimEnd('/') + "/"), Timeout = TestTimeout.Default };
    }

    public async Task DisposeAsync()
    {
        _http.Dispose();
        await _host.DisposeAsync();
    }

    [Fact]
    public async Task Poll_OfAnUnknownSession_IsNotFound()
    {
        using var response = await _http.GetAsync("push/sessions/no-such-session/poll?wait=0");

        await AssertErrorAsync(response, HttpStatusCode.NotFound, RpcErrorCode.NotFound);
    }

    [Fact]
    public async Task SilentSession_Expires_AndItsSubscriptionsEnd()
    {
        var session = await OpenSessionAsync();
        using (var subscribed = await _http.PostAsJsonAsync($"push/sessions/{session}/subscriptions", new SubscribeRequest { Topic = "silent" }, s_json))
        {
            subscribed.EnsureSuccessStatusCode();
        }

        Assert.Equal(1, _host.Topics.Statistics.Subscribers);
        var watch = Stopwatch.StartNew();
        while (_host.Topics.Statistics.Subscribers > 0 && watch.Elapsed < TimeSpan.FromSeconds(10))
        {
            await Task.Delay(100);
        }

        Assert.Equal(0, _host.Topics.Statistics.Subscribers);
        using var response = await _http.GetAsync($"push/sessions/{session}/poll?wait=0");
        await AssertErrorAsync(response, HttpStatusCode.NotFound, RpcErrorCode.NotFound);
    }

    [Fact]
    public async Task Publish_OfGarbage_IsRefused_AndTheNextPublishIsServed()
    {
        using (var garbage = await _http.PostAsync("push/publish", new StringContent("{\"topic\": [1, 2", Encoding.UTF8, "application/json")))
        {
            await AssertErrorAsync(garbage, HttpStatusCode.BadRequest, RpcErrorCode.InvalidArgument);
        }

        using var valid = await _http.PostAsJsonAsync("push/publish", new Notification { Topic = "after-garbage", Items = ["x"] }, s_json);
        valid.EnsureSuccessStatusCode();
    }

    [Fact]
    public async Task Publish_OverTheServersLimit_IsRefusedAsQuotaExceeded()
    {
        var notification = new Notification { Topic = "big", Items = [new string('x', Limit)] };

        using var response = await _http.PostAsJsonAsync("push/publish", notification, s_json);

        await AssertErrorAsync(response, HttpStatusCode.RequestEntityTooLarge, RpcErrorCode.QuotaExceeded);
    }

    [Fact]
    public async Task SecondPoll_WhileOneWaits_IsRefused()
    {
        var session = await OpenSessionAsync();
        using (var subscribed = await _http.PostAsJsonAsync($"push/sessions/{session}/subscriptions", new SubscribeRequest { Topic = "two-polls" }, s_json))
        {
            subscribed.EnsureSuccessStatusCode();
        }

        // The first poll waits far longer than a busy machine needs to register it; a publish ends it.
        // Until it is registered a quick poll is simply answered (empty); from then on it is refused.
        // A first poll that arrives while a quick one is being answered is itself refused: sent again.
        Task<HttpResponseMessage> FirstPoll() => _http.GetAsync($"push/sessions/{session}/poll?wait=30");
        var waiting = FirstPoll();
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(25));
        HttpResponseMessage second;
        while ((second = await _http.GetAsync($"push/sessions/{session}/poll?wait=0", timeout.Token)).StatusCode == HttpStatusCode.OK)
        {
            second.Dispose();
            if (waiting.IsCompleted)
            {
                (await waiting).Dispose();
                waiting = FirstPoll();
            }
        }

        using (second)
        {
            await AssertErrorAsync(second, HttpStatusCode.Conflict, RpcErrorCode.InvalidArgument);
        }

        using (var published = await _http.PostAsJsonAsync("push/publish", new Notification { Topic = "two-polls", Items = ["ends the first poll"] }, s_json))
        {
            published.EnsureSuccessStatusCode();
        }

        using var first = await waiting;
        first.EnsureSuccessStatusCode();
        Assert.Contains("ends the first poll", await first.Content.ReadAsStringAsync(), StringComparison.Ordinal);
    }

    private async Task<string> OpenSessionAsync()
    {
        using var response = await _http.PostAsync("push/sessions", null);
        response.EnsureSuccessStatusCode();
        var reply = await response.Content.ReadFromJsonAsync<JsonElement>();
        return reply.GetProperty("session").GetString()!;
    }

    private static async Task AssertErrorAsync(HttpResponseMessage response, HttpStatusCode status, RpcErrorCode code)
    {
        Assert.Equal(status, response.StatusCode);
        var error = await response.Content.ReadFromJsonAsync<JsonElement>();
        Assert.Equal(code.ToString(), error.GetProperty("code").GetString());
        Assert.False(string.IsNullOrEmpty(error.GetProperty("message").GetString()));
    }
}
