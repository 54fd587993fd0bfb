using RpcCompare.Contracts.Push;

namespace RpcCompare.Push;

/// <summary>
/// A message broker that several hosts (replicas behind a load balancer) share, so that a
/// publication made on any of them reaches the subscribers of every one. The broker numbers each
/// topic's publications and keeps them for a while in a log; every replica's <see cref="TopicRegistry"/>
/// receives every publication from <see cref="OpenFeedAsync"/> and fans it out to its own subscribers.
/// </summary>
/// <remarks>
/// The feed may lose publications while a replica's connection to the broker is down (the registry
/// then reads what it missed from the log when the next publication of that topic shows a gap),
/// but it never reorders a topic.
/// </remarks>
public interface IPushBroker
{
    /// <summary>Where the broker is, for errors and logs (never a password).</summary>
    string Description { get; }

    /// <summary>Appends a publication to its topic's log; the sequence number the broker gave it.</summary>
    Task<long> PublishAsync(Notification notification, CancellationToken cancellationToken);

    /// <summary>
    /// The last sequence number given in <paramref name="topic"/>, 0 when none: asked once per topic by the
    /// replica when its first subscriber of that topic comes. Bounded by the broker's own request timeout.
    /// </summary>
    Task<long> LastSequenceAsync(string topic, CancellationToken cancellationToken);

    /// <summary>
    /// The publications of <paramref name="topic"/> numbered after <paramref name="after"/>, oldest first,
    /// at most <paramref name="count"/>. Publications the log no longer holds are absent.
    /// </summary>
    Task<IReadOnlyList<Notification>> ReadAfterAsync(string topic, long after, int count, CancellationToken cancellationToken);

    /// <summary>
    /// The newest publications of <paramref name="topic"/> numbered after <paramref name="after"/> and up to
    /// <paramref name="through"/>, at most <paramref name="count"/>, oldest first: what a resuming subscriber
    /// missed. Bounded by the broker's own request timeout.
    /// </summary>
    Task<IReadOnlyList<Notification>> ReadLatestAsync(string topic, long after, long through, int count, CancellationToken cancellationToken);

    /// <summary>
    /// Starts receiving every publication of every topic, each topic in order, and returns once the
    /// broker is listening: anything published after that is in the feed. Dispose it to stop listening.
    /// </summary>
    Task<IPushFeed> OpenFeedAsync(CancellationToken cancellationToken);
}

/// <summary>An open feed of a broker's publications (<see cref="IPushBroker.OpenFeedAsync"/>).</summary>
public interface IPushFeed : IAsyncDisposable
{
    /// <summary>
    /// Every publication, each topic in order. Ends when the broker's connection was lost and is back
    /// (publications made meanwhile may be missing): the registry then opens a new feed and reads back
    /// from the log what it missed.
    /// </summary>
    IAsyncEnumerable<Notification> ReadAllAsync(CancellationToken cancellationToken);
}
