namespace RpcCompare.Push;

/// <summary>A snapshot of a <see cref="TopicRegistry"/>.</summary>
/// <param name="Topics">Topics with at least one subscriber.</param>
/// <param name="Subscribers">Subscriptions open now.</param>
/// <param name="Published">Publications accepted for a topic with subscribers, since the host started.</param>
/// <param name="Disconnected">Subscribers the server ended because their queue was full, since the host started.</param>
/// <param name="SharedEncodings">
/// Publications serialized once and sent as the same bytes or buffer to every subscriber of a
/// binding (pipes and fast-uds frames, WCF pre-serialized messages), since the host started; bindings that
/// serialize per subscriber (gRPC, typed WCF callbacks) add nothing here.
/// </param>
public sealed record PushStatistics(int Topics, int Subscribers, long Published, long Disconnected, long SharedEncodings);
