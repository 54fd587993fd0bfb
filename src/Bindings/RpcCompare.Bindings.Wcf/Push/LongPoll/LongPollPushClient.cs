using System.Net.Http.Json;
using RpcCompare.Bindings.Push;
using RpcCompare.Bindings.Security;
using RpcCompare.Contracts;
using RpcCompare.Contracts.Push;
using RpcCompare.Push;

namespace RpcCompare.Bindings.Wcf.Push.LongPoll;

/// <summary>
/// Publish/subscribe by HTTP long polling (<see cref="LongPollWire"/>), with an HttpClient of its
/// own: the session opens with the first subscription, and one poll at a time is outstanding
/// from then until the client is disposed. Notifications are delivered on the poll loop, in order.
/// </summary>
internal sealed class LongPollPushClient : IPushClient
{
    private readonly HttpClient _http;
    private readonly TimeSpan _wait;
    private readonly int _clientLimit;
    private readonly PushSubscriptionTable _subscriptions = new();
    private readonly SemaphoreSlim _opening = new(1, 1);
    private readonly CancellationTokenSource _stop = new();
    private string? _session;
    private Task? _pollLoop;

    public LongPollPushClient(Uri baseAddress, TimeSpan wait, int clientLimit, TimeSpan connectTimeout, ClientTlsOptions? tls = null)
    {
        _wait = wait;
        _clientLimit = clientLimit;
        _http = new HttpClient(new SocketsHttpHandler { ConnectTimeout = connectTimeout, SslOptions = { RemoteCertificateValidationCallback = tls?.ValidationCallback, ClientCertificates = tls?.ClientCertificates } })
        {
            BaseAddress = baseAddress,
            // A poll may wait the whole wait time; anything slower than that plus a margin is broken.
            Timeout = wait + TimeSpan.FromSeconds(30),
            MaxResponseContentBufferSize = clientLimit,
        };
    }

    public async Task<IPushSubscription> SubscribeAsync(string topic, Action<Notification> onNotification, long? after = null, CancellationToken cancellationToken = default)
    {
        var session = await SessionAsync(cancellationToken);
        var subscription = _subscriptions.Add(topic ?? "", onNotification, UnsubscribeAsync);
        try
        {
            await SendAsync<SubscribeReply>(HttpMethod.Post, LongPollWire.Subscriptions(session), new SubscribeRequest { Topic = subscription.Topic, After = after }, cancellationToken);
            return subscription;
        }
        catch
        {
            _subscriptions.Remove(subscription);
            throw;
        }
    }

    public Task<PublishReply> PublishAsync(Notification notification, CancellationToken cancellationToken = default) =>
        SendAsync<PublishReply>(HttpMethod.Post, LongPollWire.Publish, NotificationTrace.WithCallersTrace(notification), cancellationToken);

    public async ValueTask DisposeAsync()
    {
        await _stop.CancelAsync();
        if (_pollLoop is not null)
        {
            await _pollLoop;
        }

        if (_session is { } session)
        {
            try
            {
                // Tells the server now rather than leaving the session to expire.
                using var closing = new CancellationTokenSource(TimeSpan.FromSeconds(5));
                using var response = await _http.DeleteAsync(LongPollWire.Session(session), closing.Token);
            }
            catch (Exception exception) when (exception is HttpRequestException or OperationCanceledException)
            {
                // The server is gone or slow; the session expires there on its own.
            }
        }

        _subscriptions.EndAll(reason: null, cause: null);
        _http.Dispose();
        _stop.Dispose();
        _opening.Dispose();
    }

    private async Task UnsubscribeAsync(RoutedPushSubscription subscription)
    {
        if (!_subscriptions.Contains(subscription) || _session is not { } session)
        {
            return;
        }

        try
        {
            await SendAsync<SubscribeReply>(HttpMethod.Delete, LongPollWire.Subscription(session, subscription.Topic), body: null, CancellationToken.None);
        }
        catch (Exception exception) when (exception is HttpRequestException or RpcServiceException { Code: RpcErrorCode.NotFound })
        {
            // The session is gone, and the subscription with it.
        }

        _subscriptions.Remove(subscription);
    }

    private async Task<string> SessionAsync(CancellationToken cancellationToken)
    {
        if (Volatile.Read(ref _session) is { } opened)
        {
            return opened;
        }

        await _opening.WaitAsync(cancellationToken);
        try
        {
            if (_session is null)
            {
                ObjectDisposedException.ThrowIf(_stop.IsCancellationRequested, this);
                var reply = await SendAsync<LongPollWire.SessionReply>(HttpMethod.Post, LongPollWire.Sessions, body: null, cancellationToken);
                Volatile.Write(ref _session, reply.Session);
                _pollLoop = PollLoopAsync(reply.Session);
            }

            return _session;
        }
        finally
        {
            _opening.Release();
        }
    }

    private async Task PollLoopAsync(string session)
    {
        await Task.Yield();
        try
        {
            while (!_stop.IsCancellationRequested)
            {
                var reply = await SendAsync<LongPollWire.PollReply>(HttpMethod.Get, LongPollWire.Poll(session, _wait), body: null, _stop.Token);
                foreach (var notification in reply.Notifications)
                {
                    _subscriptions.Deliver(notification);
                }

                foreach (var ended in reply.Ended)
                {
                    _subscriptions.End(ended.Topic, ended.Reason);
                }
            }
        }
        catch (OperationCanceledException) when (_stop.IsCancellationRequested)
        {
            // Disposed.
        }
        catch (Exception exception) when (exception is HttpRequestException or RpcServiceException or OperationCanceledException or System.Text.Json.JsonException)
        {
            _subscriptions.EndAll($"Long polling {_http.BaseAddress}{LongPollWire.Session(session)} failed: {exception.Message}", exception);
        }
    }

    private async Task<T> SendAsync<T>(HttpMethod method, string path, object? body, CancellationToken cancellationToken)
    {
        using var request = new HttpRequestMessage(method, path);
        if (body is not null)
        {
            request.Content = JsonContent.Create(body, body.GetType(), options: LongPollWire.Json);
            await request.Content.LoadIntoBufferAsync(cancellationToken);
            if (request.Content.Headers.ContentLength > _clientLimit)
            {
                throw new RpcServiceException(RpcErrorCode.QuotaExceeded,
                    $"The request of {request.Content.Headers.ContentLength:N0} bytes exceeds the client's limit of {_clientLimit:N0} bytes; nothing was sent.");
            }
        }

        using var response = await _http.SendAsync(request, cancellationToken);
        if (response.IsSuccessStatusCode)
        {
            return await response.Content.ReadFromJsonAsync<T>(LongPollWire.Json, cancellationToken)
                ?? throw new HttpRequestException($"The server answered {path} with an empty body.");
        }

        var error = response.Content.Headers.ContentType?.MediaType == "application/json"
            ? await response.Content.ReadFromJsonAsync<LongPollWire.ErrorReply>(LongPollWire.Json, cancellationToken)
            : null;
        throw error is not null
            ? new RpcServiceException(error.Code, error.Message)
            : new HttpRequestException($"The server answered {method} {path} with {(int)response.StatusCode} {response.ReasonPhrase}.", null, response.StatusCode);
    }
}
