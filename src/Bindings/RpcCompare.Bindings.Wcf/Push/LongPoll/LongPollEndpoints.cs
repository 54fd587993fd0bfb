using System.Buffers;
using System.Text;
using System.Text.Json;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Http.Features;
using Microsoft.AspNetCore.Routing;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;
using RpcCompare.Bindings.Wcf.Http;
using RpcCompare.Contracts;
using RpcCompare.Contracts.Push;
using RpcCompare.Push;

namespace RpcCompare.Bindings.Wcf.Push.LongPoll;

/// <summary>
/// HTTP long polling on the wcf-http server, the successor of Silverlight's polling duplex: a poll
/// returns what is queued for the session or waits for it, up to a timeout. Each publication is
/// serialized to JSON once and the same bytes go into every subscriber's poll reply.
/// </summary>
internal static class LongPollEndpoints
{
    private const int MaxBatch = 256;
    private static readonly PublicationFormat<byte[]> s_json = new("JSON", n => JsonSerializer.SerializeToUtf8Bytes(n, LongPollWire.Json));
    private static readonly byte[] s_notifications = Encoding.UTF8.GetBytes("{\"notifications\":[");

    public static void AddServices(IServiceCollection services, TopicRegistry registry)
    {
        services.AddSingleton(registry);
        services.AddSingleton<LongPollSessions>();
    }

    public static void Map(IEndpointRouteBuilder endpoints)
    {
        var group = endpoints.MapGroup(LongPollWire.Root);
        group.MapPost("sessions", (LongPollSessions sessions) => Results.Json(new LongPollWire.SessionReply(sessions.Open().Id), LongPollWire.Json));
        group.MapDelete("sessions/{id}", (string id, LongPollSessions sessions) => sessions.Close(id) ? Results.NoContent() : UnknownSession(id));
        group.MapPost("sessions/{id}/subscriptions", SubscribeAsync);
        group.MapDelete("sessions/{id}/subscriptions/{topic}", (string id, string topic, LongPollSessions sessions) =>
        {
            if (sessions.Find(id) is not { } session)
            {
                return UnknownSession(id);
            }

            session.Unsubscribe(topic);
            return Results.Json(new SubscribeReply(), LongPollWire.Json);
        });
        group.MapGet("sessions/{id}/poll", PollAsync);
        group.MapPost("publish", PublishAsync);
    }

    private static async Task<IResult> SubscribeAsync(string id, HttpContext context, LongPollSessions sessions, IOptions<WcfHttpBindingOptions> options)
    {
        if (sessions.Find(id) is not { } session)
        {
            return UnknownSession(id);
        }

        return await RefusalsAsErrors(context, options.Value, async () =>
        {
            var request = await ReadAsync<SubscribeRequest>(context);
            return Results.Json(new SubscribeReply { LastSequence = await session.SubscribeAsync(request.Topic, request.After, context.RequestAborted) }, LongPollWire.Json);
        });
    }

    private static async Task<IResult> PublishAsync(HttpContext context, TopicRegistry registry, IOptions<WcfHttpBindingOptions> options) =>
        await RefusalsAsErrors(context, options.Value, async () => Results.Json(await registry.PublishAsync(await ReadAsync<Notification>(context), context.RequestAborted), LongPollWire.Json));

    private static async Task PollAsync(string id, int? wait, HttpContext context, LongPollSessions sessions, IOptions<WcfHttpBindingOptions> options)
    {
        if (sessions.Find(id) is not { } session)
        {
            await UnknownSession(id).ExecuteAsync(context);
            return;
        }

        var longest = options.Value.LongPollMaxWait;
        var waitFor = wait is { } seconds && seconds >= 0 ? TimeSpan.FromSeconds(Math.Min(seconds, longest.TotalSeconds)) : longest;
        List<Publication> publications;
        List<LongPollWire.EndedSubscription> ended;
        try
        {
            (publications, ended) = await session.PollAsync(waitFor, MaxBatch, context.RequestAborted);
        }
        catch (OperationCanceledException) when (context.RequestAborted.IsCancellationRequested)
        {
            return;
        }
        catch (InvalidOperationException exception)
        {
            await Error(StatusCodes.Status409Conflict, RpcErrorCode.InvalidArgument, exception.Message).ExecuteAsync(context);
            return;
        }

        // {"notifications":[<bytes serialized once per publication>,…],"ended":[…]}
        context.Response.ContentType = "application/json; charset=utf-8";
        var body = context.Response.BodyWriter;
        body.Write(s_notifications);
        for (var i = 0; i < publications.Count; i++)
        {
            if (i > 0)
            {
                body.Write(","u8);
            }

            body.Write(publications[i].Encoded(s_json));
        }

        body.Write("],\"ended\":"u8);
        body.Write(JsonSerializer.SerializeToUtf8Bytes(ended, LongPollWire.Json));
        body.Write("}"u8);
        await body.FlushAsync(context.RequestAborted);
    }

    private static async Task<T> ReadAsync<T>(HttpContext context) =>
        await JsonSerializer.DeserializeAsync<T>(context.Request.Body, LongPollWire.Json, context.RequestAborted)
            ?? throw new RpcServiceException(RpcErrorCode.InvalidArgument, $"The request body is not a {typeof(T).Name}.");

    // The registry's refusals, an unreadable body and a body over the binding's limit become an ErrorReply.
    private static async Task<IResult> RefusalsAsErrors(HttpContext context, WcfHttpBindingOptions options, Func<Task<IResult>> handle)
    {
        if (context.Features.Get<IHttpMaxRequestBodySizeFeature>() is { IsReadOnly: false } limit)
        {
            limit.MaxRequestBodySize = options.MaxMessageSize;
        }

        try
        {
            return await handle();
        }
        catch (RpcServiceException exception)
        {
            return Error(StatusCodes.Status400BadRequest, exception.Code, exception.Message);
        }
        catch (JsonException exception)
        {
            return Error(StatusCodes.Status400BadRequest, RpcErrorCode.InvalidArgument, $"The request body is not valid JSON: {exception.Message}");
        }
        catch (BadHttpRequestException exception) when (exception.StatusCode == StatusCodes.Status413PayloadTooLarge)
        {
            return Error(StatusCodes.Status413PayloadTooLarge, RpcErrorCode.QuotaExceeded, $"The request exceeds the server's limit of {options.MaxMessageSize:N0} bytes (WcfHttp:MaxMessageSize).");
        }
    }

    private static IResult UnknownSession(string id) =>
        Error(StatusCodes.Status404NotFound, RpcErrorCode.NotFound, $"No long-poll session '{id}': it was closed, or expired after no poll for a while (WcfHttp:LongPollSessionTimeout).");

    private static IResult Error(int status, RpcErrorCode code, string message) =>
        Results.Json(new LongPollWire.ErrorReply(code, message), LongPollWire.Json, statusCode: status);
}
