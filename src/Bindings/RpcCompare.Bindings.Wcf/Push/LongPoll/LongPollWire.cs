using System.Text.Json;
using System.Text.Json.Serialization;
using RpcCompare.Contracts;
using RpcCompare.Contracts.Push;

namespace RpcCompare.Bindings.Wcf.Push.LongPoll;

/// <summary>
/// The long-polling endpoints both sides agree on, under the wcf-http address, in JSON:
/// <list type="bullet">
/// <item>POST push/sessions → <see cref="SessionReply"/>: a session collects a client's subscriptions.</item>
/// <item>POST push/sessions/{id}/subscriptions with a <see cref="SubscribeRequest"/> → <see cref="SubscribeReply"/>.</item>
/// <item>DELETE push/sessions/{id}/subscriptions/{topic}; DELETE push/sessions/{id}.</item>
/// <item>GET push/sessions/{id}/poll?wait=seconds → <see cref="PollReply"/>: what is queued, or after waiting up to <c>wait</c>, nothing.</item>
/// <item>POST push/publish with a <see cref="Notification"/> → <see cref="PublishReply"/>.</item>
/// </list>
/// A refusal is an HTTP error status with an <see cref="ErrorReply"/>; an unknown (expired) session is 404.
/// </summary>
internal static class LongPollWire
{
    public const string Root = "push";

    public static readonly JsonSerializerOptions Json = new(JsonSerializerDefaults.Web)
    {
        Converters = { new JsonStringEnumConverter() },
        // An untraced publication's trace members (and a missing publisher) cost no bytes, as in protobuf and SOAP.
        DefaultIgnoreCondition = JsonIgnoreCondition.WhenWritingNull,
    };

    public static string Sessions => $"{Root}/sessions";

    public static string Subscriptions(string session) => $"{Sessions}/{Uri.EscapeDataString(session)}/subscriptions";

    public static string Subscription(string session, string topic) => $"{Subscriptions(session)}/{Uri.EscapeDataString(topic)}";

    public static string Session(string session) => $"{Sessions}/{Uri.EscapeDataString(session)}";

    public static string Poll(string session, TimeSpan wait) => $"{Session(session)}/poll?wait={(int)Math.Ceiling(wait.TotalSeconds)}";

    public static string Publish => $"{Root}/publish";

    public sealed record SessionReply(string Session);

    /// <summary>Notifications in arrival order per topic, and the topics the server ended since the last poll.</summary>
    public sealed record PollReply(List<Notification> Notifications, List<EndedSubscription> Ended);

    public sealed record EndedSubscription(string Topic, string Reason);

    public sealed record ErrorReply(RpcErrorCode Code, string Message);
}
