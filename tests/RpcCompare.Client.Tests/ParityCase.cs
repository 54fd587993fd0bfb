using System.Diagnostics.CodeAnalysis;
using System.Text.RegularExpressions;
using RpcCompare.Testing;
using RpcCompare.Contracts;

namespace RpcCompare.Client.Tests;

/// <summary>One request, run on every binding; its outcome is reduced to a string so outcomes compare exactly.</summary>
/// <param name="Name">What the case does.</param>
/// <param name="Expected">
/// A pattern the reference outcome must match whole ("ok: " and the reply as JSON, "ok: void", or
/// "error: Code: message"): all bindings agreeing on a wrong answer must still fail.
/// </param>
/// <param name="InvokeAsync">The call.</param>
/// <param name="MayExceedQuota">
/// The payload is within the message limit as data but may not be once a framework encodes it
/// (2.5 million records are 10 MB as data, about 30 MB as protobuf and more as SOAP): a binding
/// may then refuse it with QuotaExceeded instead of matching the reference.
/// </param>
public sealed record ParityCase(string Name, [StringSyntax(StringSyntaxAttribute.Regex)] string Expected, Func<IFileService, ICallShapeService, IPayloadService, Task<object?>> InvokeAsync, bool MayExceedQuota = false)
{
    /// <summary>An outcome given literally rather than as a pattern.</summary>
    public static string Exactly(string outcome) => Regex.Escape(outcome);

    public bool IsExpected(string outcome) => Regex.IsMatch(outcome, $"^(?:{Expected})$", RegexOptions.Singleline, TimeSpan.FromSeconds(5));

    public override string ToString() => Name;

    /// <summary>
    /// What the case gives over <paramref name="binding"/> at <paramref name="address"/>, as text the
    /// bindings can be compared by: "ok: " and the result as JSON, or "error: Code: message".
    /// </summary>
    public async Task<string> OutcomeAsync(RpcClientFactory factory, string binding, string address)
    {
        ArgumentNullException.ThrowIfNull(factory);
        var files = factory.Create<IFileService>(binding, address);
        var shapes = factory.Create<ICallShapeService>(binding, address);
        var payloads = factory.Create<IPayloadService>(binding, address);
        try
        {
            var result = await InvokeAsync(files, shapes, payloads).Bounded();
            return "ok: " + (result is null ? "void" : System.Text.Json.JsonSerializer.Serialize(result, result.GetType()));
        }
        catch (RpcServiceException exception)
        {
            return $"error: {exception.Code}: {exception.Message}";
        }
        finally
        {
            await RpcClientFactory.ReleaseAsync(files);
            await RpcClientFactory.ReleaseAsync(shapes);
            await RpcClientFactory.ReleaseAsync(payloads);
        }
    }
}
