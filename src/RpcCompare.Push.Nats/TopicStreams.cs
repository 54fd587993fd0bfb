using System.Security.Cryptography;
using System.Text;

namespace RpcCompare.Push.Nats;

/// <summary>
/// Where a topic lives in NATS: a stream of its own, <c>{prefix}_{token}</c>, capturing the subject
/// <c>{prefix}.t.{token}</c>, whose stored publications the server republishes on <c>{prefix}.feed.{token}</c>.
/// </summary>
/// <remarks>
/// A topic name may hold anything (256 characters of it); stream names and subject tokens allow only a
/// safe set. The token keeps letters, digits, '-' and '_' and writes every other UTF-8 byte as <c>~XX</c>,
/// so distinct topics get distinct tokens; a token that would be too long for a stream name (the server
/// keeps each stream in a directory named after it) ends in a hash of the topic instead.
/// </remarks>
internal sealed class TopicStreams
{
    private const int MaxTokenLength = 200;

    private readonly string _prefix;

    public TopicStreams(string prefix)
    {
        if (!NatsPushOptions.IsValidPrefix(prefix))
        {
            throw new ArgumentException($"Push:Nats:Prefix '{prefix}' must be letters, digits, '-' and '_' only.", nameof(prefix));
        }

        _prefix = prefix;
        FeedSubjects = prefix + ".feed.>";
    }

    /// <summary>Every topic's republished publications: what the feed subscribes to.</summary>
    public string FeedSubjects { get; }

    public TopicStream For(string topic)
    {
        var token = Token(topic);
        return new TopicStream(topic, $"{_prefix}_{token}", $"{_prefix}.t.{token}", $"{_prefix}.feed.{token}");
    }

    internal static string Token(string topic)
    {
        var bytes = Encoding.UTF8.GetBytes(topic);
        var token = new StringBuilder(bytes.Length);
        foreach (var b in bytes)
        {
            if (char.IsAsciiLetterOrDigit((char)b) || b is (byte)'-' or (byte)'_')
            {
                token.Append((char)b);
            }
            else
            {
                token.Append('~').Append(b.ToString("X2", System.Globalization.CultureInfo.InvariantCulture));
            }
        }

        if (token.Length <= MaxTokenLength)
        {
            return token.ToString();
        }

        var hash = Convert.ToHexString(SHA256.HashData(bytes), 0, 16);
        return string.Concat(token.ToString(0, MaxTokenLength - hash.Length - 2), "~~", hash);
    }
}

/// <param name="Topic">The topic's name.</param>
/// <param name="Stream">The stream holding its publications.</param>
/// <param name="Subject">Where publications are published (the stream's only subject).</param>
/// <param name="Feed">Where the server republishes each stored publication with its sequence number.</param>
internal sealed record TopicStream(string Topic, string Stream, string Subject, string Feed);
