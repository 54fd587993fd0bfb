using System.Text.Json;

namespace RpcCompare.PushAgent;

/// <summary>The JSON both ends of the agent's stdin/stdout use.</summary>
internal static class AgentJson
{
    public static readonly JsonSerializerOptions Options = new(JsonSerializerDefaults.Web);
}
